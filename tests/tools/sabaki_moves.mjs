// Print the main line of an SGF file as Sabaki's parser (@sabaki/sgf) reads it:
// {"root": {PROP: [values]}, "moves": [["B", "pd"], ...]} as JSON.
//   node tests/tools/sabaki_moves.mjs FILE.sgf
import sgf from "@sabaki/sgf";

const [root] = sgf.parseFile(process.argv[2]);
const moves = [];
let node = root;
while (node.children.length) {
  node = node.children[0];
  for (const colour of ["B", "W"]) {
    if (node.data[colour]) moves.push([colour, node.data[colour][0]]);
  }
}
console.log(JSON.stringify({ root: root.data, moves }));
