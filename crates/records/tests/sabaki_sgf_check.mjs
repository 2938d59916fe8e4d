// Reads SGF files with @sabaki/sgf, the parser of the Sabaki viewer, installed in
// tools/sabaki-sgf, and prints what it found, one JSON object per file: the nodes of the main
// line, each with its property map as Sabaki reads it (values unescaped) and the points of its
// B, W, AB, AW and AE decoded by Sabaki's own helpers (a pass decodes to [-1, -1]).
//
// Usage: node sabaki_sgf_check.mjs FILE...
import {createRequire} from 'node:module'

const require = createRequire(new URL('../../../tools/sabaki-sgf/', import.meta.url))
const sgf = require('@sabaki/sgf')

for (const path of process.argv.slice(2)) {
  // parseFile, as the viewer opens a file: the bytes are decoded by the CA property
  const [root] = sgf.parseFile(path)
  const nodes = []
  for (let node = root; node != null; node = node.children[0]) {
    const points = {}
    for (const id of ['B', 'W']) {
      if (id in node.data) points[id] = node.data[id].map(sgf.parseVertex)
    }
    for (const id of ['AB', 'AW', 'AE']) {
      if (id in node.data) points[id] = node.data[id].flatMap(sgf.parseCompressedVertices)
    }
    nodes.push({data: node.data, points})
  }
  console.log(JSON.stringify({file: path, nodes}))
}
