// Replays a single-board game's move list in the browser: the board after every move (for the
// replay slider) and what each move did (captures, incursions, kings), which the game page needs
// to explain the restriction in force. The server stays the authority: the page checks that the
// replayed final board equals the server's and ignores the replay if it does not.

import { parseVertex } from './board.js';

const EMPTY = 0;
const BLACK = 1;
const WHITE = 2;

/** A position: colours per point (row-major from the top) and king flags. */
class Position {
  constructor(width, height) {
    this.width = width;
    this.height = height;
    this.colour = new Uint8Array(width * height);
    this.king = new Uint8Array(width * height);
  }

  clone() {
    const p = new Position(this.width, this.height);
    p.colour.set(this.colour);
    p.king.set(this.king);
    return p;
  }

  neighbours(i) {
    const x = i % this.width;
    const out = [];
    if (x > 0) out.push(i - 1);
    if (x < this.width - 1) out.push(i + 1);
    if (i >= this.width) out.push(i - this.width);
    if (i < this.width * (this.height - 1)) out.push(i + this.width);
    return out;
  }

  /** The points connected to i through points of the same content (a chain, or an empty region). */
  flood(i) {
    const c = this.colour[i];
    const seen = new Set([i]);
    const stack = [i];
    while (stack.length) {
      for (const n of this.neighbours(stack.pop())) {
        if (!seen.has(n) && this.colour[n] === c) {
          seen.add(n);
          stack.push(n);
        }
      }
    }
    return seen;
  }

  liberties(chain) {
    for (const i of chain) if (this.neighbours(i).some((n) => this.colour[n] === EMPTY)) return true;
    return false;
  }

  /** The colours bordering an empty region. */
  borders(region) {
    const colours = new Set();
    for (const i of region) for (const n of this.neighbours(i)) if (this.colour[n] !== EMPTY) colours.add(this.colour[n]);
    return colours;
  }

  /** Whether a region is line-shaped: no point with more than two neighbours inside it, and
   * exactly points - 1 inner adjacencies (a path, not a block, a T or a ring). */
  lineShaped(region) {
    let adjacencies = 0;
    for (const i of region) {
      const inside = this.neighbours(i).filter((n) => region.has(n)).length;
      if (inside > 2) return false;
      adjacencies += inside;
    }
    return adjacencies / 2 === region.size - 1;
  }

  rows() {
    const out = [];
    for (let y = 0; y < this.height; y++) {
      let row = '';
      for (let x = 0; x < this.width; x++) {
        const i = y * this.width + x;
        const c = this.colour[i];
        row += c === EMPTY ? '.' : c === BLACK ? (this.king[i] ? 'K' : 'X') : this.king[i] ? 'k' : 'O';
      }
      out.push(row);
    }
    return out;
  }
}

/**
 * Replays `moves` (vertices or `pass`, Black first) of a single-board variant.
 * @returns {{boards:string[][], facts:object[]}} `boards[k]` is the board after k moves
 * (`boards[0]` empty); `facts[k]` says what move k+1 did: `{colour, pass, captured, groups,
 * incursion, line, king}`.
 */
export function replay(variant, width, height, moves) {
  const kings = variant.startsWith('excursion');
  const revertKings = variant === 'excursion-1';
  let pos = new Position(width, height);
  const boards = [pos.rows()];
  const facts = [];
  moves.forEach((mv, k) => {
    const me = k % 2 === 0 ? BLACK : WHITE;
    const them = me === BLACK ? WHITE : BLACK;
    const fact = { colour: me === BLACK ? 'black' : 'white', pass: mv === 'pass', captured: 0, groups: 0, incursion: false, line: false, king: false };
    const p = parseVertex(mv, width, height);
    if (p) {
      const i = p.y * width + p.x;
      pos = pos.clone();
      const region = pos.flood(i);
      const borders = pos.borders(region);
      fact.incursion = borders.size === 1 && borders.has(them);
      fact.line = fact.incursion && pos.lineShaped(region);
      pos.colour[i] = me;
      if (kings) {
        fact.king = fact.incursion || pos.neighbours(i).some((n) => pos.colour[n] === me && pos.king[n]);
        if (fact.king) {
          for (const j of pos.flood(i)) pos.king[j] = 1;
        } else if (revertKings) {
          pos.king.fill(0);
        }
      }
      for (const n of pos.neighbours(i)) {
        if (pos.colour[n] !== them) continue;
        const chain = pos.flood(n);
        if (!pos.liberties(chain)) {
          fact.groups += 1;
          fact.captured += chain.size;
          for (const j of chain) {
            pos.colour[j] = EMPTY;
            pos.king[j] = 0;
          }
        }
      }
      const own = pos.flood(i);
      if (!pos.liberties(own)) {
        for (const j of own) {
          pos.colour[j] = EMPTY;
          pos.king[j] = 0;
        }
      }
    }
    boards.push(pos.rows());
    facts.push(fact);
  });
  return { boards, facts };
}
