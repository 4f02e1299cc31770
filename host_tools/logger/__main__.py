import sys

from host_tools.logger.cli import main

sys.exit(main())
