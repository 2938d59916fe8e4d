// The rules pages' diagrams: each `<figure class="diagram">` holds a text diagram in a `<pre>`
// (rows from the top: `.` empty, `X`/`O` stones, `K`/`k` kings), drawn as a board with the same
// code as the game page. Attributes: `data-last` (a vertex), `data-shade` (`A1:restricted ...`,
// added to any zone shade), `data-marks` (`C6:besieged ...`), `data-zones` (Borderline's zones),
// `data-galice` (`left` or `right`: a Galice board, rows from the top, the left one's columns in
// lower case, as the notation writes them; its vertices are written upper case here).
// Without JavaScript the text diagram stays readable.

import { Board, vertexAt, zoneClass } from './board.js';
import { showAccount } from './account.js';

showAccount();

for (const figure of document.querySelectorAll('figure.diagram')) {
  const pre = figure.querySelector('pre');
  const rows = pre.textContent.split('\n').map((r) => r.trim()).filter((r) => r.length > 0);
  const height = rows.length;
  const width = rows[0].length;
  const shade = new Map();
  if (figure.dataset.zones) {
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) shade.set(vertexAt(x, y, height), zoneClass(height, y));
  }
  for (const item of (figure.dataset.shade || '').split(/\s+/).filter(Boolean)) {
    const [vertex, cls] = item.split(':');
    shade.set(vertex, shade.has(vertex) ? `${shade.get(vertex)} ${cls}` : cls);
  }
  const marks = new Map();
  for (const item of (figure.dataset.marks || '').split(/\s+/).filter(Boolean)) {
    const [vertex, cls] = item.split(':');
    marks.set(vertex, cls);
  }
  const box = document.createElement('div');
  box.className = 'board-box';
  const caption = figure.querySelector('figcaption');
  const galice = figure.dataset.galice;
  const board = new Board(box, {
    width,
    height,
    label: caption ? caption.textContent : 'diagram',
    fromTop: !!galice,
    lowercase: galice === 'left',
  });
  board.draw({ rows, shade, marks, last: figure.dataset.last || null });
  pre.replaceWith(box);
}
