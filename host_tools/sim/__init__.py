"""The board, simulated: the device's app (firmware/app.py) on the simulated hardware (twins/hardware.py).

live.py runs it in real time behind a web page (web.py, web/) with its serial
link on a pty (pty_link.py) to a real logger; headless.py runs it with
simulated time through a physical event script (script.py), such as those
physical.py makes from game records. ``python -m host_tools.sim``: cli.py.
"""
