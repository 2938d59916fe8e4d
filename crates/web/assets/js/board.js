// The SVG board: grid, coordinates, stones and kings, shading, marks, the last-move marker, a
// hover preview, and keyboard play (arrow keys move a cursor, Enter plays). The game page and
// the rules diagrams both draw with it.

const SVG = 'http://www.w3.org/2000/svg';
/** Column letters as GTP writes them (no I). */
const LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
const CELL = 10;
const MARGIN = 12;
/** Boards drawn so far on the page: each names its own hatching pattern. */
let boards = 0;

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

/** The vertex (`D4`) of column x (0 = left) and row y (0 = top). Rows count from the bottom as
 * in GTP, or from the top with `fromTop` (Galice's notation). */
export function vertexAt(x, y, height, fromTop = false) {
  return `${LETTERS[x]}${fromTop ? y + 1 : height - y}`;
}

/** Column and row (0 = top) of a vertex, or null; `fromTop` as for `vertexAt`. */
export function parseVertex(vertex, width, height, fromTop = false) {
  const m = /^([A-HJ-Z])(\d+)$/i.exec(vertex || '');
  if (!m) return null;
  const x = LETTERS.indexOf(m[1].toUpperCase());
  const y = fromTop ? Number(m[2]) - 1 : height - Number(m[2]);
  return x >= 0 && x < width && y >= 0 && y < height ? { x, y } : null;
}

/** Borderline's zones as shading classes: Black's own zone is the top half of the rows (rounded
 * down), White's the bottom half, and an odd middle row is the Border. */
export function zoneClass(height, y) {
  const rows = Math.floor(height / 2);
  if (y < rows) return 'zone-black';
  if (y >= height - rows) return 'zone-white';
  return 'border';
}

/** Star points of the usual boards. */
function hoshi(width, height) {
  if (width !== height || ![9, 13, 19].includes(width)) return [];
  const edge = width === 9 ? 2 : 3;
  const lines = width === 9 ? [edge, width - 1 - edge] : [edge, (width - 1) / 2, width - 1 - edge];
  const points = lines.flatMap((x) => lines.map((y) => [x, y]));
  return width === 9 ? [...points, [4, 4]] : points;
}

/** One board drawn as SVG inside a container element. */
export class Board {
  /**
   * @param {HTMLElement} container where the SVG goes
   * @param {{width:number, height:number, label:string, onPlay?:(vertex:string)=>void,
   *   onHover?:(vertex:string|null)=>void, fromTop?:boolean, lowercase?:boolean}} options
   * `onPlay` makes the board interactive (click, tap, keyboard); `onHover` hears the point under
   * the pointer or the keyboard cursor; `fromTop` numbers the rows from the top (Galice);
   * `lowercase` labels the columns in lower case (Galice's left board; vertices stay upper case).
   */
  constructor(container, { width, height, label, onPlay, onHover, fromTop = false, lowercase = false }) {
    this.width = width;
    this.height = height;
    this.fromTop = fromTop;
    this.lowercase = lowercase;
    this.onPlay = onPlay;
    this.onHover = onHover;
    this.state = { rows: [], shade: new Map(), marks: new Map(), last: null, preview: null, previewable: null };
    this.cursor = null;
    this.hovered = null; // the vertex under the pointer, if any
    const size = (n) => (n - 1) * CELL + 2 * MARGIN;
    this.root = svg('svg', {
      viewBox: `0 0 ${size(width)} ${size(height)}`,
      class: 'board',
      role: onPlay ? 'application' : 'img',
      'aria-label': label,
    });
    // the hatching of the points that may not be played (`shade` class `restricted`)
    boards += 1;
    this.hatch = `hatch-${boards}`;
    const defs = svg('defs');
    const pattern = svg('pattern', { id: this.hatch, patternUnits: 'userSpaceOnUse', width: 3, height: 3, patternTransform: 'rotate(45)' });
    pattern.append(svg('rect', { width: 3, height: 3, class: 'hatch-ground' }), svg('line', { x1: 1.5, y1: 0, x2: 1.5, y2: 3, class: 'hatch-line' }));
    defs.append(pattern);
    this.root.append(defs);
    this.layers = {};
    for (const name of ['wood', 'shade', 'grid', 'stones', 'marks', 'hover', 'hits']) {
      // the drawing is for the eyes: the label and the cursor's description speak for it
      this.layers[name] = svg('g', { class: `layer-${name}`, 'aria-hidden': 'true' });
      this.root.append(this.layers[name]);
    }
    this.drawGrid();
    if (onPlay) this.makeInteractive();
    container.replaceChildren(this.root);
  }

  /** The vertex of a column and row on this board. */
  name(x, y) {
    return vertexAt(x, y, this.height, this.fromTop);
  }

  /** Column and row of a vertex on this board, or null. */
  locate(vertex) {
    return parseVertex(vertex, this.width, this.height, this.fromTop);
  }

  /** SVG coordinates of a column or row. */
  at(i) {
    return MARGIN + i * CELL;
  }

  drawGrid() {
    const { width, height } = this;
    const { wood, grid, hits } = this.layers;
    wood.append(svg('rect', { x: 0, y: 0, width: this.at(width - 1) + MARGIN, height: this.at(height - 1) + MARGIN, class: 'wood' }));
    for (let x = 0; x < width; x++) {
      grid.append(svg('line', { x1: this.at(x), y1: this.at(0), x2: this.at(x), y2: this.at(height - 1), class: 'line' }));
      for (const y of [MARGIN / 2 - 1.5, this.at(height - 1) + MARGIN / 2 + 1.5]) {
        const t = svg('text', { x: this.at(x), y, class: 'coord', 'text-anchor': 'middle', 'dominant-baseline': 'middle' });
        t.textContent = this.lowercase ? LETTERS[x].toLowerCase() : LETTERS[x];
        grid.append(t);
      }
    }
    for (let y = 0; y < height; y++) {
      grid.append(svg('line', { x1: this.at(0), y1: this.at(y), x2: this.at(width - 1), y2: this.at(y), class: 'line' }));
      for (const x of [MARGIN / 2 - 1.5, this.at(width - 1) + MARGIN / 2 + 1.5]) {
        const t = svg('text', { x, y: this.at(y), class: 'coord', 'text-anchor': 'middle', 'dominant-baseline': 'middle' });
        t.textContent = String(this.fromTop ? y + 1 : height - y);
        grid.append(t);
      }
    }
    for (const [x, y] of hoshi(width, height)) {
      grid.append(svg('circle', { cx: this.at(x), cy: this.at(y), r: 0.9, class: 'hoshi' }));
    }
    // one transparent target per point: clicks, taps and hovers find their vertex from it
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        hits.append(svg('rect', {
          x: this.at(x) - CELL / 2, y: this.at(y) - CELL / 2, width: CELL, height: CELL,
          class: 'hit', 'data-vertex': vertexAt(x, y, height, this.fromTop),
        }));
      }
    }
  }

  makeInteractive() {
    this.root.setAttribute('tabindex', '0');
    this.root.classList.add('interactive');
    const vertexOf = (event) => event.target.closest && event.target.closest('[data-vertex]')?.dataset.vertex;
    this.root.addEventListener('click', (event) => {
      const vertex = vertexOf(event);
      if (vertex) this.onPlay(vertex);
    });
    this.root.addEventListener('pointerover', (event) => this.hover(vertexOf(event) || null));
    this.root.addEventListener('pointerleave', () => this.hover(null));
    this.root.addEventListener('keydown', (event) => this.key(event));
    this.root.addEventListener('focus', () => {
      if (!this.cursor && this.root.matches(':focus-visible')) {
        this.moveCursor(Math.floor(this.width / 2), Math.floor(this.height / 2));
      }
    });
    this.root.addEventListener('blur', () => this.hover(null));
  }

  key(event) {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[event.key]) {
      const [dx, dy] = moves[event.key];
      const c = this.cursor || { x: 0, y: 0 };
      this.moveCursor(Math.min(this.width - 1, Math.max(0, c.x + dx)), Math.min(this.height - 1, Math.max(0, c.y + dy)));
      event.preventDefault();
    } else if ((event.key === 'Enter' || event.key === ' ') && this.cursor) {
      this.onPlay(this.name(this.cursor.x, this.cursor.y));
      event.preventDefault();
    }
  }

  moveCursor(x, y) {
    this.cursor = { x, y };
    const vertex = this.name(x, y);
    const piece = this.pieceAt(x, y);
    const what = piece === '.' ? 'empty' : piece === 'X' || piece === 'K' ? 'black' : 'white';
    this.root.setAttribute('aria-label', `${vertex}, ${what}. Arrow keys move, Enter plays.`);
    this.hover(vertex);
  }

  pieceAt(x, y) {
    return (this.state.rows[y] || '')[x] || '.';
  }

  /**
   * Shows a translucent stone of `state.preview` colour on a vertex the `state.previewable`
   * predicate accepts (null: none).
   */
  hover(vertex) {
    this.hovered = vertex;
    const layer = this.layers.hover;
    layer.replaceChildren();
    if (this.onHover) this.onHover(vertex);
    const { preview, previewable } = this.state;
    const p = vertex && this.locate(vertex);
    if (!p) return;
    const focused = this.cursor && vertex === this.name(this.cursor.x, this.cursor.y);
    if (focused && this.root.matches(':focus-visible')) {
      layer.append(svg('rect', { x: this.at(p.x) - CELL / 2 + 0.5, y: this.at(p.y) - CELL / 2 + 0.5, width: CELL - 1, height: CELL - 1, class: 'cursor' }));
    }
    if (preview && (!previewable || previewable(vertex))) {
      layer.append(svg('circle', { cx: this.at(p.x), cy: this.at(p.y), r: CELL * 0.47, class: `stone ${preview} preview` }));
    }
  }

  /**
   * Draws a position.
   * @param {{rows:string[], shade?:Map<string,string>, marks?:Map<string,string>, last?:string|null,
   *   preview?:'black'|'white'|null, previewable?:(v:string)=>boolean}} state
   * `rows` from the top: `.` empty, `X`/`O` stones, `K`/`k` kings; `shade` puts classes
   * (space-separated, one layer each) on a point's square, `marks` a class on a mark over the point (`dead`, `besieged`, `selected`...).
   */
  draw(state) {
    this.state = { shade: new Map(), marks: new Map(), last: null, preview: null, previewable: null, ...state };
    const { stones, shade, marks } = this.layers;
    stones.replaceChildren();
    shade.replaceChildren();
    marks.replaceChildren();
    for (const [vertex, classes] of this.state.shade) {
      const p = this.locate(vertex);
      if (!p) continue;
      for (const cls of classes.split(' ')) {
        const rect = svg('rect', { x: this.at(p.x) - CELL / 2, y: this.at(p.y) - CELL / 2, width: CELL, height: CELL, class: `shade ${cls}` });
        if (cls === 'restricted') rect.setAttribute('fill', `url(#${this.hatch})`);
        shade.append(rect);
      }
    }
    for (let y = 0; y < this.height; y++) {
      for (let x = 0; x < this.width; x++) {
        const piece = this.pieceAt(x, y);
        if (piece === '.') continue;
        const colour = piece === 'X' || piece === 'K' ? 'black' : 'white';
        const vertex = this.name(x, y);
        const g = svg('g', { class: `piece ${colour}`, 'data-stone': vertex });
        if (this.state.marks.get(vertex) === 'dead') g.classList.add('dead');
        g.append(svg('circle', { cx: this.at(x), cy: this.at(y), r: CELL * 0.47, class: `stone ${colour}` }));
        if (piece === 'K' || piece === 'k') {
          // a king: a crown drawn in the opposite colour, so that kings read at a glance
          const cx = this.at(x);
          const cy = this.at(y);
          g.classList.add('king');
          g.append(svg('path', {
            d: `M${cx - 2.6},${cy + 1.6} L${cx - 2.6},${cy - 1.4} L${cx - 1.3},${cy} L${cx},${cy - 2.2} L${cx + 1.3},${cy} L${cx + 2.6},${cy - 1.4} L${cx + 2.6},${cy + 1.6} Z`,
            class: `crown ${colour}`,
          }));
        }
        stones.append(g);
      }
    }
    for (const [vertex, cls] of this.state.marks) {
      const p = this.locate(vertex);
      if (!p) continue;
      const [cx, cy] = [this.at(p.x), this.at(p.y)];
      if (cls === 'dead') {
        marks.append(svg('path', { d: `M${cx - 2.5},${cy - 2.5} L${cx + 2.5},${cy + 2.5} M${cx + 2.5},${cy - 2.5} L${cx - 2.5},${cy + 2.5}`, class: `mark dead` }));
      } else if (cls === 'landing' || cls === 'pending') {
        // where a stone arrives (Galice's swap), or the point tapped once: a stone's outline
        marks.append(svg('circle', { cx, cy, r: CELL * 0.45, class: `mark ${cls}` }));
      } else {
        marks.append(svg('rect', { x: cx - 2, y: cy - 2, width: 4, height: 4, class: `mark ${cls}` }));
      }
    }
    const last = this.state.last && this.locate(this.state.last);
    if (last) {
      const piece = this.pieceAt(last.x, last.y);
      const on = piece === 'X' || piece === 'K' ? 'on-black' : 'on-white';
      // around a king's crown rather than over it
      const r = piece === 'K' || piece === 'k' ? CELL * 0.38 : CELL * 0.22;
      marks.append(svg('circle', { cx: this.at(last.x), cy: this.at(last.y), r, class: `mark last ${on}` }));
    }
    // the preview under the pointer follows the new position: a point that has just become
    // unplayable (hatched) loses its stone
    if (this.cursor) this.hover(this.name(this.cursor.x, this.cursor.y));
    else if (this.hovered) this.hover(this.hovered);
  }
}
