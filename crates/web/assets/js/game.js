// The game page: the board, the players and clocks, the move list, the actions, the variant's
// own information, live updates over the WebSocket (reconnecting and catching up by sequence
// number), and the replay slider of finished games.

import { api, seats, rememberSeat, forgetSeat, accountSeat, el, colourName, other, formatClock, formatByoYomi, describePlayer, describeSpec, optionOf, seatColour } from './api.js';
import { Board, parseVertex, vertexAt, zoneClass } from './board.js';
import { replay } from './replay.js';
import { Chat } from './chat.js';
import { showAccount, ratingOf, forgetRatings } from './account.js';

const id = decodeURIComponent(location.pathname.split('/')[2] || '');
const params = new URLSearchParams(location.search);
const $ = (selector) => document.getElementById(selector);

/** Everything the page knows. */
const page = {
  game: null, // the server's latest GameView
  received: 0, // performance.now() when it arrived (for the clocks)
  // {token, color, invite?} when this browser plays here; a logged-in account's seat has no
  // token (the session cookie stands for it)
  seat: seats()[id] || null,
  board: null,
  boardSize: '',
  replayed: null, // {boards, facts} of the move list, when it matches the server's board
  // (Galice: {boards, rightBoards, facts} from the server's `history` of a finished game)
  movesKey: '',
  viewing: null, // the move number the replay slider shows, or null for the live position
  busy: false,
  // touch screens: a tap on a legal point first shows the stone, a second tap (or "Play") plays it
  confirmTaps: matchMedia('(pointer: coarse)').matches,
  pending: null, // the point tapped once, waiting for its confirmation
  boards: null, // Galice: {left, right}
  swap: null, // Galice: the swap chosen (`bB2`), waiting for its drop
  pair: null, // Square Lifeline: the first stone of a first turn's pair, waiting for the second
  about: new Map(), // variant name -> one-line description
  estimate: null, // the AI's score estimate of the position shown (GET /api/games/{id}/estimate)
  estimating: false,
  ratings: {}, // account name -> its rating in this game's variant ('' for none yet)
};

/** The colour this browser's seat plays now (Galice's choice may have swapped the seats). */
function myColour() {
  return seatColour(page.seat, page.game);
}

function showMessage(text) {
  $('message').textContent = text || '';
}

/** Sends an action for this browser's seat; the server's refusal is shown in words. */
async function act(action) {
  if (!page.seat) {
    showMessage('You are watching this game: only its players can act.');
    return;
  }
  if (page.busy) return;
  page.busy = true;
  try {
    const answer = await api(`/api/games/${id}/actions`, { method: 'POST', body: action, token: page.seat.token });
    showMessage('');
    update(answer.game);
  } catch (error) {
    showMessage(error.message);
  } finally {
    page.busy = false;
  }
}

/** A click or tap on the board: with confirmation on, a legal point on the player's turn is
 * first shown as the stone to play; a second tap there (or "Play") plays it. Anything else goes
 * to `play` at once (an illegal point or a move out of turn comes back with its reason). */
function boardTap(vertex) {
  const game = page.game;
  if (game && lifelinePairTurn(game) && game.to_move === myColour() && page.viewing === null) {
    lifelinePairTap(vertex);
    return;
  }
  const asks = page.confirmTaps && game && game.status === 'playing' && page.viewing === null
    && game.to_move === myColour() && game.legal.includes(vertex);
  if (asks && page.pending !== vertex) {
    // nothing above the board changes size here (the message stays until the move is sent), so
    // that the second tap lands where the first did
    page.pending = vertex;
    render();
    return;
  }
  page.pending = null;
  play(vertex);
}

function play(vertex) {
  const game = page.game;
  if (!game) return;
  if (page.viewing !== null) {
    showMessage('You are looking at an earlier position: "Back to the game" (under the board) to play.');
    return;
  }
  if (game.status === 'scoring') {
    const dead = new Set(game.scoring ? game.scoring.dead : []);
    const p = parseVertex(vertex, game.width, game.height);
    if (!p || game.board[p.y][p.x] === '.') {
      showMessage('In the dead-stone phase, click a stone to mark its group dead or alive.');
      return;
    }
    act({ type: 'mark_dead', vertex, dead: !dead.has(vertex) });
    return;
  }
  act({ type: 'move', move: vertex });
}

// ---- Square Lifeline ----------------------------------------------------------------------

/** Whether a game is Square Lifeline. */
function isLifeline(game) {
  return game.variant === 'lifeline';
}

/** Whether the side to move is at its first turn, a pair (its legal moves are pairs `C2+C4`). */
function lifelinePairTurn(game) {
  return isLifeline(game) && game.status === 'playing' && game.legal.some((mv) => mv.includes('+'));
}

/** The colour that made move `i` (from 0): they alternate from Black, but White's swap leaves
 * White to move. */
function lifelineMover(game, i) {
  let mover = 'black';
  for (const mv of game.moves.slice(0, i)) if (mv !== 'swap') mover = other(mover);
  return mover;
}

/** A tap at a first turn: the first stone waits (a second tap on it takes it back), the second
 * sends the pair; the server says why a pair is refused. */
function lifelinePairTap(vertex) {
  const game = page.game;
  const p = parseVertex(vertex, game.width, game.height);
  if (!p || game.board[p.y][p.x] !== '.') {
    showMessage(`${vertex} is not empty: a first turn places two stones on empty points.`);
    return;
  }
  if (page.pair === null || page.pair === vertex) {
    page.pair = page.pair === vertex ? null : vertex;
    showMessage(page.pair ? `${vertex}: now the second stone of your pair (tap ${vertex} again to take it back).` : '');
    render();
    return;
  }
  const pair = `${page.pair}+${vertex}`;
  page.pair = null;
  act({ type: 'move', move: pair });
}

// ---- Galice -------------------------------------------------------------------------------

/** A point in the Galice notation: lowercase on the left board, uppercase on the right. */
function galiceName(side, vertex) {
  return side === 'left' ? vertex.toLowerCase() : vertex.toUpperCase();
}

/** The board side and board vertex of a Galice point name. */
function galicePoint(name) {
  return { side: name[0] === name[0].toLowerCase() ? 'left' : 'right', vertex: name.toUpperCase() };
}

/** The colour letter of a Galice game's turn `i` (from 0): Black's five setup stones, White's
 * choice, then White first (its drop) and turns alternating. */
function galiceMover(i) {
  if (i < 5) return 'B';
  if (i === 5) return 'W';
  return (i - 6) % 2 === 0 ? 'W' : 'B';
}

/** What a Galice turn shows as its last move: the drop, else the swap's destination, else the
 * setup stone. */
function galiceLast(turn) {
  const words = (turn || '').split(' ');
  if (/^[a-zA-Z][a-zA-Z]\d+$/.test(words[0])) return galicePoint(words[1] !== '--' ? words[1] : `${words[0][1]}${words[0].slice(2)}`);
  if ((words[0] === '---' || words[0] === 'x' || words[0] === 'o') && words[1]) return galicePoint(words[1]);
  return null;
}

/** The stage of a Galice game from its legal turns: `setup`, `choose`, `drop` or `swap`. */
function galiceStage(game) {
  const first = game.legal[0] || '';
  if (/^[xo] /.test(first)) return 'setup';
  if (first.startsWith('choose')) return 'choose';
  if (first.startsWith('--- ')) return 'drop';
  return 'swap';
}

/** A click on a Galice board: a setup stone, White's first drop, or a swap (a stone) then its
 * drop (an empty point). Anything else goes to the server, which says why it is refused. */
function galicePlay(side, vertex) {
  const game = page.game;
  if (!game || game.status !== 'playing') return;
  const name = galiceName(side, vertex);
  const stage = galiceStage(game);
  const move = (text) => act({ type: 'move', move: text });
  if (stage === 'setup') {
    move(game.legal.find((t) => t.endsWith(` ${name}`)) || `${game.legal[0][0]} ${name}`);
  } else if (stage === 'drop') {
    move(`--- ${name}`);
  } else if (stage === 'swap') {
    const rows = side === 'left' ? game.board : game.right_board;
    const p = parseVertex(vertex, game.width, game.height, true);
    const stone = p && rows[p.y][p.x] !== '.';
    if (page.swap === null || stone) {
      if (!stone) {
        showMessage('First click one of your stones to swap it to the other board.');
        return;
      }
      const twin = side === 'left' ? name[0].toUpperCase() : name[0].toLowerCase();
      const swap = `${name[0]}${twin}${name.slice(1)}`;
      page.swap = page.swap === swap ? null : swap;
      showMessage('');
      render();
    } else {
      move(`${page.swap} ${name}`);
    }
  }
}

/** What the Galice panel says at each stage, to the player to move and to everyone else. */
function galiceText(game, stage, myTurn) {
  const mover = colourName(game.to_move);
  // the setup's stones so far: three black ones first, then two white ones
  const placed = game.moves.filter((t) => /^[xo] /.test(t)).length;
  const stones = placed < 3 ? `${3 - placed} black stone${placed === 2 ? '' : 's'} and then two white ones` : `${5 - placed} white stone${placed === 4 ? '' : 's'}`;
  switch (stage) {
    case 'setup':
      return myTurn
        ? `Pie setup: click either board to place ${stones} (${placed} of 5 placed). Your opponent then chooses a colour.`
        : `Pie setup: ${mover} is placing ${stones} (${placed} of 5 placed); then ${colourName(other(game.to_move))} chooses a colour.`;
    case 'choose':
      return myTurn
        ? 'The setup is done: choose the colour you will play. White moves first, with a drop only.'
        : `The setup is done: waiting for ${mover} to choose a colour.`;
    case 'drop':
      return myTurn
        ? "White's first turn: click an empty point on either board to drop a stone (no swap)."
        : `White's first turn: waiting for ${mover} to drop a stone.`;
    default:
      if (!myTurn) return `Waiting for ${mover}: a swap, then a drop or none.`;
      return page.swap
        ? `Swap ${page.swap.slice(0, 1)}${page.swap.slice(2)} → ${page.swap.slice(1)} (the dashed circle on the ${galicePoint(page.swap.slice(1)).side} board): click an empty point to drop a stone, or No drop.`
        : 'Your turn: click one of your stones to swap it to its twin point on the other board, then an empty point to drop (or No drop).';
  }
}

/** The move field's label and example for Galice's stage (the field takes the notation). */
function galiceField(stage) {
  const examples = { setup: 'x a1', choose: 'choose white', drop: '--- d4', swap: 'bB2 D4 or pass' };
  $('move-form').classList.add('notation');
  $('move-label').textContent = 'Type a turn (Galice notation)';
  $('move-input').placeholder = examples[stage] || examples.swap;
}

/** A finished Galice game's replay: the server's `history`, both boards after each turn (null
 * without it, or if it does not match the moves and the boards shown). */
function galiceReplay(game) {
  const history = game.history;
  if (!Array.isArray(history) || history.length !== game.moves.length + 1) return null;
  const final = history[history.length - 1];
  if (final.right_board.join('/') !== game.right_board.join('/')) return null;
  return { boards: history.map((h) => h.board), rightBoards: history.map((h) => h.right_board), facts: [] };
}

function renderGalice(game, mine) {
  const stage = game.status === 'playing' ? galiceStage(game) : null;
  // the replay slider's position (a finished game), else the live one
  const viewing = page.viewing !== null && page.replayed ? page.viewing : null;
  const myTurn = stage && game.to_move === mine;
  $('galice').hidden = !stage;
  $('galice-text').textContent = stage ? galiceText(game, stage, myTurn) : '';
  galiceField(stage);
  $('choose-black').hidden = !(myTurn && stage === 'choose');
  $('choose-white').hidden = !(myTurn && stage === 'choose');
  $('no-drop').hidden = !(myTurn && page.swap);
  $('cancel-swap').hidden = !(myTurn && page.swap);
  const last = galiceLast(game.moves[(viewing === null ? game.moves.length : viewing) - 1]);
  const selected = page.swap && galicePoint(`${page.swap[0]}${page.swap.slice(2)}`);
  // the twin point on the other board, where the swapped stone lands
  const landing = page.swap && galicePoint(`${page.swap[1]}${page.swap.slice(2)}`);
  // the AI's estimate asked for during play: both boards' ownership, the dead stones in the notation
  const estimate = viewing === null && game.status === 'playing' ? page.estimate : null;
  for (const side of ['left', 'right']) {
    const marks = new Map();
    const shade = new Map();
    const owned = estimate && (side === 'left' ? estimate.ownership : estimate.right_ownership);
    if (owned) {
      shadeOwnership(shade, owned, game.height, true);
      for (const dead of estimate.dead.map(galicePoint)) if (dead.side === side) marks.set(dead.vertex, 'dead');
    }
    if (selected && selected.side === side) marks.set(selected.vertex, 'selected');
    if (landing && landing.side === side) marks.set(landing.vertex, 'landing');
    const dropping = myTurn && (stage === 'setup' || stage === 'drop' || (stage === 'swap' && page.swap));
    const rows = viewing !== null
      ? (side === 'left' ? page.replayed.boards : page.replayed.rightBoards)[viewing]
      : (side === 'left' ? game.board : game.right_board);
    page.boards[side].draw({
      rows,
      shade,
      marks,
      last: last && last.side === side ? last.vertex : null,
      preview: dropping ? (stage === 'setup' ? (game.legal[0][0] === 'x' ? 'black' : 'white') : mine) : null,
      previewable: (v) => {
        const p = parseVertex(v, game.width, game.height, true);
        return !!p && rows[p.y][p.x] === '.';
      },
    });
  }
}

// ---- live updates -------------------------------------------------------------------------

let socket = null;
let retry = 500;
let restarting = false; // the server said it was restarting, and no socket has got through since

function connect() {
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const after = page.game ? page.game.seq : 0;
  // a seat's socket carries its token (or the session cookie, for an account's seat), so that the
  // server does not count the player as a spectator
  const seat = page.seat && page.seat.token ? `&token=${encodeURIComponent(page.seat.token)}` : '';
  socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(id)}/ws?after=${after}${seat}`);
  socket.addEventListener('open', () => {
    retry = 500;
    restarting = false;
    setConnection('');
  });
  socket.addEventListener('message', (message) => {
    let data;
    try {
      data = JSON.parse(message.data);
    } catch {
      return;
    }
    if (data.type === 'event') chat.add(data);
    if (data.type === 'state' || (data.type === 'event' && data.game)) update(data.game);
  });
  socket.addEventListener('close', (event) => {
    // a socket replaced on purpose (after joining) is not reconnected
    if (event.target !== socket || (page.game && page.game.status === 'finished')) return;
    // 1012: the server is restarting (a graceful stop); its successor takes the game up. The
    // attempts that fail while it is away say so too, until one gets through.
    restarting = restarting || event.code === 1012;
    setConnection(restarting ? 'The server is restarting: reconnecting…' : 'Connection lost: reconnecting…');
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 5000);
  });
}

// A page left for another keeps living in the back/forward cache with its socket open, and its
// reader would still be counted as watching: the socket closes when the page is hidden and
// opens again, catching up, if the page is shown from the cache.
addEventListener('pagehide', () => {
  const leaving = socket;
  socket = null;
  if (leaving) leaving.close();
});
addEventListener('pageshow', (event) => {
  if (event.persisted && !socket && page.game) connect();
});

function setConnection(text) {
  $('connection').textContent = text;
}

/** Takes a newer view of the game (views older than the one shown are ignored). */
function update(game) {
  if (!game || (page.game && game.seq < page.game.seq)) return;
  // a refusal, a hint or a tapped point is about the game as it was: the next change clears it
  if (page.game && game.seq > page.game.seq) {
    showMessage('');
    page.pending = null;
    page.estimate = null;
  }
  const first = !page.game;
  page.game = game;
  page.received = performance.now();
  if (first) setup(game);
  // (a Galice game's `history` arrives when it finishes, with the same moves)
  const key = `${game.size}|${game.history ? 'history|' : ''}${game.moves.join(' ')}`;
  if (key !== page.movesKey) {
    page.movesKey = key;
    page.swap = null;
    // Galice has two boards and its own notation: its replay is the server's `history` of a
    // finished game (both boards after each turn), not the JavaScript rules
    const replayed = game.right_board ? galiceReplay(game) : replay(game.variant, game.width, game.height, game.moves);
    const final = replayed && replayed.boards[replayed.boards.length - 1];
    page.replayed = final && final.join('/') === game.board.join('/') ? replayed : null;
  }
  // a player reviewing earlier moves keeps looking at them while the game goes on
  if (!page.replayed || (page.viewing !== null && page.viewing >= game.moves.length)) page.viewing = null;
  render();
}

/** Once per page: the board and the static parts. */
function setup(game) {
  document.title = `${describeSpec(game.spec)} · variago`;
  $('title').textContent = describeSpec(game.spec);
  $('sgf').href = `/api/games/${encodeURIComponent(id)}/sgf`;
  if (game.right_board) {
    // Galice: the left and the right board, each point named in the notation's case
    const boxes = ['left', 'right'].map((side) => el('div', { id: `board-${side}`, class: 'board-box' }));
    $('board').replaceChildren(el('div', { class: 'galice-boards' },
      el('figure', {}, boxes[0], el('figcaption', {}, 'left board (a–g)')),
      el('figure', {}, boxes[1], el('figcaption', {}, 'right board (A–G)'))));
    const [left, right] = ['left', 'right'].map((side, i) => new Board(boxes[i], {
      width: game.width,
      height: game.height,
      label: `Galice ${side} board`,
      onPlay: (vertex) => galicePlay(side, vertex),
      fromTop: true,
      lowercase: side === 'left',
    }));
    page.boards = { left, right };
  } else {
    page.board = new Board($('board'), {
      width: game.width,
      height: game.height,
      label: `${game.variant} board, ${game.size}`,
      onPlay: boardTap,
      onHover: pointInfo,
    });
  }
  const about = page.about.get(game.variant);
  $('about').replaceChildren(
    about ? `${about}. ` : '',
    el('a', { href: `/rules/${game.variant}` }, 'Rules of ', game.variant),
    game.spec.includes(':') ? ` · ${game.spec}` : '',
  );
}

/** Says why the point under the pointer or cursor may not be played, if the server refuses it. */
function pointInfo(vertex) {
  const game = page.game;
  const reason = vertex && page.viewing === null && game && game.refused && game.refused[vertex];
  $('point-info').textContent = reason ? `${vertex}: ${reason}` : '';
}

// ---- rendering ----------------------------------------------------------------------------

/** The result in words: `B+3.5` -> `Black wins by 3.5 points`. */
function resultText(result) {
  if (!result) return '';
  if (result === 'Void') return 'Game left by agreement (no result)';
  if (/^draw$/i.test(result) || result === '0') return 'Draw';
  const m = /^([BW])\+(.*)$/.exec(result);
  if (!m) return result;
  const who = m[1] === 'B' ? 'Black' : 'White';
  if (m[2] === 'R' || m[2] === 'Resign') return `${who} wins by resignation`;
  if (m[2] === 'T' || m[2] === 'Time') return `${who} wins on time`;
  if (m[2] === '' ) return `${who} wins`;
  return `${who} wins by ${m[2]} point${m[2] === '1' ? '' : 's'}`;
}

function render() {
  const game = page.game;
  const mine = myColour();
  renderPlayers(game, mine);
  renderStatus(game, mine);
  renderActions(game, mine);
  renderNotices(game, mine);
  if (game.right_board) renderGalice(game, mine);
  else renderBoard(game, mine);
  renderLastMove(game);
  renderMoves(game);
  renderScore(game);
  renderEstimate(game);
  renderReplay(game);
  chat.render(game, page.seat);
}

/** Whether the players' ratings shown were asked while a rated game was being played. */
let ratingsBeforeResult = false;

function renderPlayers(game, mine) {
  // the event that finishes a rated game moves both ratings (in the same transaction): once it
  // arrives, the cards and the header ask for them again, without a reload
  const rated = game.rated && game.status === 'finished';
  if (rated && ratingsBeforeResult) {
    forgetRatings();
    page.ratings = {};
    showAccount();
  }
  ratingsBeforeResult = game.rated && !rated;
  const cards = ['black', 'white'].map((side) => {
    const view = game.players[side];
    const rating = view.account && page.ratings[view.account];
    const who = (view.account ? `${view.account}${rating ? ` (${rating})` : ''}` : describePlayer(view, view.seated))
      + (side === mine ? ' (you)' : '');
    if (view.account && !(view.account in page.ratings)) {
      // asked once per name: the card shows the rating once it arrives
      page.ratings[view.account] = '';
      ratingOf(view.account, game.variant).then((r) => {
        page.ratings[view.account] = r;
        if (r) render();
      });
    }
    return el('div', { class: `player ${side}${game.to_move === side ? ' to-move' : ''}`, 'data-side': side },
      el('span', { class: `swatch ${side}`, 'aria-hidden': 'true' }),
      el('span', { class: 'name' }, el('strong', {}, colourName(side)), ' ', who),
      // Square Lifeline captures nothing: its stones die for want of a path
      isLifeline(game) ? null : el('span', { class: 'captures' }, `captures ${game.captures[side]}`),
      game.clocks ? el('span', { class: 'clock', 'data-clock': side }, '') : null,
    );
  });
  $('players').replaceChildren(...cards);
  tickClocks();
}

function tickClocks() {
  const game = page.game;
  if (!game || !game.clocks) return;
  for (const side of ['black', 'white']) {
    const clock = game.clocks[side];
    const node = document.querySelector(`[data-clock="${side}"]`);
    if (!node) continue;
    const elapsed = clock.running && game.status === 'playing' ? performance.now() - page.received : 0;
    const left = clock.remaining_ms - elapsed;
    const tc = game.time_control;
    const flagged = game.status === 'finished' && /\+T/.test(game.result || '') && game.result[0] !== side[0].toUpperCase();
    node.textContent = flagged
      ? '0:00 lost on time'
      : tc.kind === 'byo-yomi' ? formatByoYomi(left, clock.periods, tc.period_ms) : formatClock(left);
    node.classList.toggle('running', clock.running && game.status === 'playing');
    node.classList.toggle('low', left < 10000);
  }
}

function renderStatus(game, mine) {
  let text;
  switch (game.status) {
    case 'open':
      text = 'Waiting for an opponent to join.';
      break;
    case 'playing':
      text = `${colourName(game.to_move)} to move` + (game.to_move === mine ? ': your turn.' : '.');
      if (lifelinePairTurn(game)) {
        const swap = game.legal.includes('swap') ? ", or swap and play Black's stones from here" : '';
        text = game.to_move === mine
          ? `${colourName(game.to_move)} to move: your first turn, two stones (tap two empty points)${swap}.`
          : `${colourName(game.to_move)} to move: a first turn, two stones.`;
      }
      break;
    case 'scoring':
      text = 'Two passes: mark the dead stones, then both players accept.';
      break;
    default:
      text = game.result !== 'Void' ? `Game over: ${resultText(game.result)} (${game.result}).`
        : cancelled(game) ? 'Cancelled by its creator before anyone joined (no result).'
          : 'Game over: game left by agreement (no result).';
  }
  $('status').textContent = text;
  $('status').dataset.status = game.status;
  // the tab says when it is the player's move, seen from another tab
  const yourMove = game.status === 'playing' && !!mine && game.to_move === mine;
  document.title = `${yourMove ? '● Your move · ' : ''}${describeSpec(game.spec)} · variago`;
  $('join').hidden = !(game.status === 'open' && !mine);
  const opponent = mine && game.players[other(mine)];
  const inviteWanted = game.status === 'open' && opponent && opponent.kind === 'human' && !opponent.seated;
  $('invite').hidden = !inviteWanted;
  if (inviteWanted) {
    const invite = page.seat.invite ? `?invite=${page.seat.invite}` : '';
    $('invite-link').value = `${location.origin}/game/${id}${invite}`;
  }
}

/** Whether a finished game was cancelled while open: a person's seat was never taken. */
function cancelled(game) {
  return ['black', 'white'].some((s) => game.players[s].kind === 'human' && !game.players[s].seated);
}

/** Whether the AI plays the side to move (it is searching now). */
function aiToMove(game) {
  const player = game.status === 'playing' && game.to_move ? game.players[game.to_move] : null;
  return !!player && player.kind === 'ai';
}

/** Stones as a short list: `C3, D4 and 5 more`. */
function stoneList(vertices) {
  const shown = vertices.slice(0, 4).join(', ');
  return vertices.length > 4 ? `${shown} and ${vertices.length - 4} more` : shown;
}

/** Whether a move is a pass (Galice writes it `-----`). */
function isPass(mv) {
  return mv === 'pass' || mv === '-----';
}

/** Why play went on after a dead-stone phase without agreement, and how the game ends now (also
 * in the dead-stone phase that the resumer's pass opened again at once). */
function resumedText(game, mine) {
  const resumed = game.resumed;
  const by = game.players[resumed.by];
  const again = game.status === 'scoring';
  const who = resumed.by === mine ? 'You' : by.kind === 'ai' ? 'The AI' : colourName(resumed.by);
  const held = [
    resumed.held_alive.length ? `it holds ${stoneList(resumed.held_alive)} alive` : '',
    resumed.held_dead.length ? `it holds ${stoneList(resumed.held_dead)} dead` : '',
  ].filter((t) => t).join(' and ');
  const disagreed = `${who} did not accept the marking${held ? ` (${held})` : ''}`;
  if (by.kind === 'ai' && resumed.by !== mine) {
    return again
      ? `${disagreed}: play resumed and the AI passed again, proposing its marking anew. Accept it to end the game, or resume play and capture the stones you believe dead.`
      : `${disagreed}: play resumed. Capture the stones you believe dead, or pass again and accept the AI's marking: the game ends when both accept one.`;
  }
  return again
    ? `${disagreed}: play resumed, and two passes opened a new marking. The game ends when both accept one.`
    : `${disagreed}: play resumed. When both pass again, the dead stones are marked anew; the game ends when both accept a marking.`;
}

/** The notice a player must not miss: the opponent's pass (one more ends play), or why play
 * resumed after the dead-stone phase. */
function noticeText(game, mine) {
  if (game.resumed) return resumedText(game, mine);
  if (game.status !== 'playing') return '';
  if (!isPass(game.moves[game.moves.length - 1])) return '';
  const passer = other(game.to_move);
  // Borderline and Galice count at once; Go-like variants open the dead-stone phase first
  const ends = game.variant === 'borderline' || game.right_board ? ' and the game is counted' : ' and the dead stones are marked';
  if (passer === mine) return `You passed. If ${colourName(game.to_move)} passes too, play ends${ends}.`;
  if (game.to_move === mine) return `${colourName(passer)} passed. If you pass too, play ends${ends}; or play on.`;
  return `${colourName(passer)} passed: one more pass ends play.`;
}

function renderNotices(game, mine) {
  $('thinking').hidden = !aiToMove(game);
  const notice = noticeText(game, mine);
  $('notice').hidden = !notice;
  $('notice').textContent = notice;
}

function renderActions(game, mine) {
  const playing = game.status === 'playing' && !!mine;
  $('actions').hidden = !mine || game.status === 'finished';
  $('move-form').hidden = !playing;
  $('pass').disabled = !(playing && game.to_move === mine);
  // Square Lifeline has no pass; its swap is offered on White's first turn
  $('pass').hidden = isLifeline(game);
  $('swap').hidden = !(playing && game.to_move === mine && game.legal.includes('swap'));
  $('undo').disabled = !(playing && game.moves.length > 0 && !game.undo_request);
  // Galice, Square Lifeline and rated games have no undo
  $('undo').hidden = !!game.right_board || isLifeline(game) || game.rated;
  $('undo').textContent = game.undo_request === mine ? 'Undo asked…' : 'Ask to undo';
  $('resign').disabled = !(playing || game.status === 'scoring');
  $('undo-answer').hidden = !(playing && game.undo_request && game.undo_request !== mine);
  // leaving without a result, by agreement (a server without it sends no `leave_request`)
  const leave = game.leave_request || null;
  const inGame = !!mine && (game.status === 'playing' || game.status === 'scoring');
  $('leave').disabled = !inGame || !!leave;
  $('leave').textContent = leave === mine ? 'Leave asked: waiting for your opponent…' : "Leave (needs your opponent's consent)";
  $('leave-answer').hidden = !(inGame && leave && leave !== mine);
  const scoring = game.status === 'scoring' && game.scoring;
  $('scoring').hidden = !scoring;
  if (scoring) {
    const accepted = ['black', 'white'].filter((s) => game.scoring.accepted[s]).map(colourName);
    const ai = ['black', 'white'].some((s) => game.players[s].kind === 'ai');
    $('scoring-text').textContent = (game.scoring.proposal ? '' : 'The AI is proposing dead stones… ')
      + 'Click a group to mark it dead or alive. '
      + (accepted.length ? `Accepted by ${accepted.join(' and ')}.` : 'Nobody has accepted yet.')
      + (ai ? ' The AI accepts only its own marking: if you accept another, it resumes play.' : ' The game ends when both accept; either may resume play instead.');
    $('score-accept').disabled = !mine || game.scoring.accepted[mine];
    $('score-resume').disabled = !mine;
  }
}

/** The restriction in force after the last move, in words, or null. */
function restriction(game, mine) {
  if (game.status !== 'playing' || !page.replayed || game.moves.length === 0) return null;
  const fact = page.replayed.facts[game.moves.length - 1];
  const mover = colourName(fact.colour);
  const next = colourName(other(fact.colour));
  const you = game.to_move === mine;
  const variant = game.variant;
  if (variant.startsWith('incursion')) {
    const minimal = variant === 'incursion-minimal' || optionOf(game.spec, 'minimal', 'false') === 'true';
    const line = variant === 'incursion-line' || optionOf(game.spec, 'shape', 'any') === 'line';
    const counted = fact.incursion && (!minimal || fact.groups <= 1) && (!line || fact.line);
    if (!counted) return null;
    return you
      ? 'Your opponent just made an incursion: you may not play into their territory this turn.'
      : `${mover} just made an incursion: ${next} may not play into ${mover}'s territory this turn.`;
  }
  if (variant === 'stoical' && fact.captured > 0) {
    const more = optionOf(game.spec, 'refine', 'none') === 'more-stones'
      ? ` (unless it takes more than ${fact.captured} stone${fact.captured > 1 ? 's' : ''})` : '';
    return you
      ? `Your opponent just captured: you may not capture this turn${more}.`
      : `${mover} just captured: ${next} may not capture this turn${more}.`;
  }
  if (variant === 'excursion-2' && fact.king) {
    return you
      ? 'Your opponent just placed a king: your king placements may not remove a king this turn.'
      : `${mover} just placed a king: ${next}'s king placements may not remove a king this turn.`;
  }
  return null;
}

/** Shades each point of one board by the estimate's ownership `rows` (from the top), dark for
 * Black and light for White in three strengths (a share of 0.2, 0.5, 0.8 or more). */
function shadeOwnership(shade, rows, height, fromTop) {
  rows.forEach((row, y) => row.forEach((share, x) => {
    const strength = Math.abs(share) >= 0.8 ? 3 : Math.abs(share) >= 0.5 ? 2 : Math.abs(share) >= 0.2 ? 1 : 0;
    if (strength === 0) return;
    const v = vertexAt(x, y, height, fromTop);
    const cls = `owned-${share > 0 ? 'black' : 'white'}-${strength}`;
    shade.set(v, shade.has(v) ? `${shade.get(v)} ${cls}` : cls);
  }));
}

function renderBoard(game, mine) {
  const viewing = page.viewing;
  const rows = viewing === null ? game.board : page.replayed.boards[viewing];
  const lastIndex = (viewing === null ? game.moves.length : viewing) - 1;
  // (a Square Lifeline pair or swap marks no point)
  const lastMove = lastIndex >= 0 ? game.moves[lastIndex] : null;
  const last = lastMove && parseVertex(lastMove, game.width, game.height) ? lastMove : null;
  const shade = new Map();
  const marks = new Map();
  const legal = new Set(game.legal);
  if (game.variant === 'borderline') {
    for (let y = 0; y < game.height; y++) {
      for (let x = 0; x < game.width; x++) shade.set(vertexAt(x, y, game.height), zoneClass(game.height, y));
    }
  }
  const rule = viewing === null ? restriction(game, mine) : null;
  $('restriction').hidden = !rule;
  $('restriction').textContent = rule || '';
  // the points the player to move may not play, with the server's reasons (shown on hover)
  if (viewing === null && game.status === 'playing' && game.to_move === mine) {
    for (const v of Object.keys(game.refused || {})) shade.set(v, shade.has(v) ? `${shade.get(v)} restricted` : 'restricted');
  }
  if (viewing === null && game.scoring) {
    for (const v of game.scoring.dead) marks.set(v, 'dead');
    // each side's territory as the marking counts it (a server without it sends none)
    for (const side of ['black', 'white']) {
      for (const v of (game.scoring.territory || {})[side] || []) shade.set(v, shade.has(v) ? `${shade.get(v)} territory-${side}` : `territory-${side}`);
    }
  }
  // the AI's estimate asked for during play: who owns each point, and the stones it judges dead
  const estimate = viewing === null && game.status === 'playing' ? page.estimate : null;
  if (estimate && estimate.ownership) {
    shadeOwnership(shade, estimate.ownership, game.height, false);
    for (const v of estimate.dead) marks.set(v, 'dead');
  }
  // Borderline's live survey: each side's enclosed points shaded, besieged stones marked
  if (viewing === null && game.borderline) {
    for (const [v, side] of Object.entries(game.borderline.enclosed || {})) {
      shade.set(v, shade.has(v) ? `${shade.get(v)} enclosed-${side}` : `enclosed-${side}`);
    }
    for (const v of game.borderline.besieged || []) marks.set(v, 'besieged');
  }
  const myTurn = viewing === null && game.status === 'playing' && game.to_move === mine;
  if (myTurn && page.pending) marks.set(page.pending, 'pending');
  if (myTurn && page.pair) marks.set(page.pair, 'pending');
  // while a player taps twice to play, the confirmation's place is kept in the action row all
  // game long, so that neither the first tap nor a change of turn moves the board
  const confirming = myTurn && page.pending;
  $('confirm-move').hidden = !(page.confirmTaps && viewing === null && game.status === 'playing' && mine);
  $('confirm-move').classList.toggle('waiting', !confirming);
  $('confirm-move').textContent = confirming ? `Play ${page.pending}` : 'Play';
  page.board.draw({
    rows,
    shade,
    marks,
    last,
    preview: myTurn ? mine : null,
    // a first turn's points are judged as a pair, by the server
    previewable: (v) => legal.has(v) || (lifelinePairTurn(game) && !!parseVertex(v, game.width, game.height)),
  });
}

/** The last move (at the replay slider) under the board in words, a pass included. */
function renderLastMove(game) {
  const at = page.viewing === null ? game.moves.length : page.viewing;
  const mv = game.moves[at - 1];
  const line = $('last-move');
  line.classList.toggle('pass', isPass(mv));
  if (!mv) {
    line.textContent = '';
  } else if (game.right_board) {
    line.textContent = `Last turn: ${at}. ${galiceMover(at - 1)} ${mv}`;
  } else {
    const mover = colourName(isLifeline(game) ? lifelineMover(game, at - 1) : at % 2 === 1 ? 'black' : 'white');
    line.textContent = isPass(mv) ? `Last move: ${at}. ${mover} passed`
      : mv === 'swap' ? `Last move: ${at}. ${mover} swapped: that player now plays Black's stones`
        : `Last move: ${at}. ${mover} ${mv}`;
  }
}

function renderMoves(game) {
  // any move can be looked at again, during play too, when the page could replay the moves
  const reviewable = !!page.replayed;
  const items = game.moves.map((mv, i) => {
    // Galice's turns name themselves (the pie setup does not alternate colours)
    const mover = game.right_board ? galiceMover(i)
      : isLifeline(game) ? lifelineMover(game, i)[0].toUpperCase() : i % 2 === 0 ? 'B' : 'W';
    const label = `${i + 1}. ${mover} ${mv}`;
    const current = page.viewing === i + 1 || (page.viewing === null && i === game.moves.length - 1);
    const content = reviewable
      ? el('button', { type: 'button', class: 'linkish', onclick: () => view(i + 1) }, label)
      : label;
    return el('li', { class: current ? 'current' : null, 'data-move': mv }, content);
  });
  const list = $('moves');
  list.replaceChildren(...items);
  // keep the current move in sight by scrolling the list only, never the page
  const current = list.querySelector('.current');
  if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
}

/** Parses Borderline's breakdown lines: `Black: live 3 + enclosed 0 + annihilation 2 + siege 0 - loss 1 = 4`. */
function breakdown(text) {
  const sides = {};
  for (const line of text.split('\n')) {
    const m = /^(Black|White): live (-?\d+) \+ enclosed (-?\d+) \+ annihilation (-?\d+) \+ siege (-?\d+) - loss (-?\d+) = (-?\d+)/.exec(line);
    if (m) sides[m[1].toLowerCase()] = { live: m[2], enclosed: m[3], annihilation: m[4], siege: m[5], loss: m[6], total: m[7] };
  }
  return sides.black && sides.white ? sides : null;
}

/** A line of the score in words, wrapping only between its terms: `2 stones`, `(komi 7.5)` and
 * `= 2` stay whole. */
function scoreLine(line) {
  return line.replace(/ /g, '\u00a0').replace(/\u00a0\+\u00a0/g, '\u00a0+ ').replace(/,\u00a0/g, ', ').replace(/\u00a0\(/g, ' (');
}

function renderScore(game) {
  const score = game.score;
  const parts = [];
  const sides = game.variant === 'borderline' ? breakdown(score.text) : null;
  if (sides) {
    const terms = ['live', 'enclosed', 'annihilation', 'siege', 'loss', 'total'];
    parts.push(el('table', { class: 'breakdown', id: 'breakdown' },
      el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', { scope: 'col' }, 'Black'), el('th', { scope: 'col' }, 'White'))),
      el('tbody', {}, terms.map((term) => el('tr', { 'data-term': term },
        el('th', { scope: 'row' }, term === 'loss' ? 'loss (−)' : term),
        el('td', { 'data-side': 'black' }, sides.black[term]),
        el('td', { 'data-side': 'white' }, sides.white[term]))))));
    parts.push(el('p', {}, `White adds komi ${score.komi}.`));
  } else if (isLifeline(game)) {
    // no points: each side's stones and groups, then the verdict in words
    parts.push(el('pre', { class: 'score-text' }, score.text.split('\n').filter((l) => l).map((line) => el('span', { class: 'line' }, line))));
  } else {
    // in play the count takes every stone as alive: it says so, lest an early count mislead
    const asItStands = game.status === 'playing' ? 'As the board stands, every stone alive: ' : '';
    parts.push(el('p', {}, `${asItStands}Black ${score.totals.black} – White ${score.totals.white} + komi ${score.komi}`));
    parts.push(el('pre', { class: 'score-text' }, score.text.split('\n').filter((l) => l).map((line) => el('span', { class: 'line' }, scoreLine(line)))));
  }
  if (game.status !== 'finished' && !isLifeline(game)) {
    const alive = game.status === 'playing' ? ' with every stone alive' : '';
    parts.push(el('p', { class: 'if-now' }, `If the game ended now${alive}: ${resultText(score.result)}.`));
  }
  $('score').replaceChildren(...parts);
  renderVariantPanel(game);
}

/** The estimate button (during play) and the estimate of the position shown, in words. */
function renderEstimate(game) {
  const playing = game.status === 'playing' && page.viewing === null;
  $('estimate-button').hidden = !playing;
  $('estimate-button').disabled = page.estimating;
  $('estimate-button').textContent = page.estimating ? 'Estimating…' : isLifeline(game) ? 'Estimate chances' : 'Estimate score';
  const estimate = playing ? page.estimate : null;
  $('estimate').hidden = !estimate;
  if (!estimate) return;
  // the favourite by the win rate, which the open points weigh in (the settled count may not)
  const favourite = estimate.black_winrate >= 0.5 ? 'black' : 'white';
  const chance = Math.round(100 * (favourite === 'white' ? 1 - estimate.black_winrate : estimate.black_winrate));
  // two short lines: who is likely to win, then the count as it stands
  const odds = el('strong', {}, `${colourName(favourite)}'s chance of winning: ${chance}%`);
  const first = [odds, ` (AI estimate, ${estimate.playouts} playouts).`];
  if (estimate.result === null) {
    $('estimate').replaceChildren(...first, el('br'), `${estimate.note}.`);
    return;
  }
  const boards = game.right_board ? 'both boards' : 'the board';
  const komi = game.right_board ? '' : ', komi in';
  const settled = estimate.winner ? `${colourName(estimate.winner)} ahead: ${estimate.result}` : 'even: a draw';
  const open = estimate.open_points > 0
    ? `, ${estimate.open_points} point${estimate.open_points === 1 ? '' : 's'} still open` : '';
  $('estimate').replaceChildren(...first, el('br'),
    `Area count of ${boards} now, dead stones off${komi}: ${settled}${open}. Shaded on ${boards}.`);
}

/** Asks the server for an estimate of the position now; kept only while the game has not moved. */
async function requestEstimate() {
  if (!page.game || page.estimating) return;
  page.estimating = true;
  render();
  try {
    const estimate = await api(`/api/games/${encodeURIComponent(id)}/estimate`);
    if (page.game && estimate.seq === page.game.seq) page.estimate = estimate;
  } catch (error) {
    showMessage(error.message);
  } finally {
    page.estimating = false;
    render();
  }
}

/** Borderline's stones and passes left for both sides, and the deployment in progress. */
function renderVariantPanel(game) {
  const panel = $('variant-panel');
  if (game.variant !== 'borderline') {
    panel.hidden = true;
    return;
  }
  const forces = Number(optionOf(game.spec, 'forces', '120'));
  const cap = optionOf(game.spec, 'pass-cap', '2');
  const placed = { black: 0, white: 0 };
  const passes = { black: 0, white: 0 };
  game.moves.forEach((mv, i) => {
    const side = i % 2 === 0 ? 'black' : 'white';
    if (mv !== 'pass') placed[side] += 1;
    // a pass with stones left is voluntary (a forced pass, with no legal placement, is rare)
    else if (placed[side] < forces) passes[side] += 1;
  });
  const rows = Math.floor(game.height / 2);
  // the deployment in the server's words, the refusal's own
  const { deployment: rule, deployment_left: left } = game.borderline;
  panel.hidden = false;
  panel.replaceChildren(
    el('h2', {}, 'Forces'),
    el('table', { class: 'forces' },
      el('thead', {}, el('tr', {}, el('th', {}, ''), el('th', { scope: 'col' }, 'Black'), el('th', { scope: 'col' }, 'White'))),
      el('tbody', {},
        el('tr', {}, el('th', { scope: 'row' }, 'stones left'), el('td', { 'data-side': 'black' }, forces - placed.black), el('td', { 'data-side': 'white' }, forces - placed.white)),
        el('tr', {}, el('th', { scope: 'row' }, 'passes left'),
          el('td', {}, cap === 'off' ? '∞' : Math.max(0, Number(cap) - passes.black)),
          el('td', {}, cap === 'off' ? '∞' : Math.max(0, Number(cap) - passes.white))))),
    el('ul', { class: 'legend' },
      el('li', {}, el('span', { class: 'key zone-black' }, ''), ` Black's zone (rows ${game.height - rows + 1}–${game.height})`),
      game.height % 2 ? el('li', {}, el('span', { class: 'key border' }, ''), ` Border (row ${rows + 1})`) : '',
      el('li', {}, el('span', { class: 'key zone-white' }, ''), ` White's zone (rows 1–${rows})`),
      el('li', {}, el('span', { class: 'key restricted' }, ''), ' not playable now')),
    // the server's wording, the refusal's own
    rule ? el('p', { class: 'deployment' }, `${rule[0].toUpperCase()}${rule.slice(1)} (${left} opening stone${left === 1 ? '' : 's'} to go).`) : '',
  );
}

/** The replay slider: a finished game's, and during play the review of earlier moves, which
 * leaves the live position a click away ("Back to the game"). */
function renderReplay(game) {
  const finished = game.status === 'finished';
  const show = !!page.replayed && (finished || game.moves.length > 0);
  $('replay').hidden = !show;
  if (!show) return;
  $('replay').querySelector('label').textContent = finished ? 'Replay' : 'Review';
  const slider = $('replay-slider');
  slider.max = String(game.moves.length);
  const at = page.viewing === null ? game.moves.length : page.viewing;
  slider.value = String(at);
  $('replay-label').textContent = `move ${at} of ${game.moves.length}`;
  $('replay-live').hidden = finished || page.viewing === null;
}

/** Shows the position after `n` moves (the live position at the end). */
function view(n) {
  const game = page.game;
  if (!game || !page.replayed) return;
  const clamped = Math.max(0, Math.min(game.moves.length, n));
  page.viewing = clamped === game.moves.length ? null : clamped;
  render();
}

// ---- wiring -------------------------------------------------------------------------------

function wire() {
  $('move-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('move-input').value.trim();
    if (!text) return;
    if (/^pass$/i.test(text)) act({ type: 'pass' });
    else if (page.game && page.game.right_board) act({ type: 'move', move: text });
    else if (page.game && isLifeline(page.game)) act({ type: 'move', move: /^swap$/i.test(text) ? 'swap' : text.toUpperCase() });
    else play(text.toUpperCase());
    $('move-input').value = '';
  });
  $('pass').addEventListener('click', () => act({ type: 'pass' }));
  $('swap').addEventListener('click', () => act({ type: 'move', move: 'swap' }));
  $('estimate-button').addEventListener('click', requestEstimate);
  $('confirm-move').addEventListener('click', () => page.pending && boardTap(page.pending));
  // a board twice the screen's width, scrolled in its box, for small points on a phone
  $('zoom').addEventListener('click', () => {
    const zoomed = $('board').classList.toggle('zoomed');
    $('zoom').setAttribute('aria-pressed', String(zoomed));
    $('zoom').textContent = zoomed ? 'Zoom out' : 'Zoom in';
    const focus = zoomed && document.querySelector('#board .mark.pending, #board .mark.last');
    const box = $('board');
    if (focus) {
      // the tapped point or the last move in the middle of the box
      const at = focus.getBoundingClientRect();
      const frame = box.getBoundingClientRect();
      box.scrollLeft += at.left + at.width / 2 - (frame.left + frame.width / 2);
      box.scrollTop += at.top + at.height / 2 - (frame.top + frame.height / 2);
    }
  });
  $('confirm-taps').checked = page.confirmTaps;
  $('confirm-taps').addEventListener('change', (event) => {
    page.confirmTaps = event.target.checked;
    page.pending = null;
    render();
  });
  $('undo').addEventListener('click', () => act({ type: 'undo_request' }));
  const confirming = (on) => {
    $('resign').hidden = on;
    $('resign-confirm').hidden = !on;
    $('resign-cancel').hidden = !on;
    if (on) $('resign-confirm').focus();
  };
  $('resign').addEventListener('click', () => confirming(true));
  $('resign-cancel').addEventListener('click', () => confirming(false));
  $('resign-confirm').addEventListener('click', () => {
    confirming(false);
    act({ type: 'resign' });
  });
  $('undo-accept').addEventListener('click', () => act({ type: 'undo_answer', accept: true }));
  $('undo-decline').addEventListener('click', () => act({ type: 'undo_answer', accept: false }));
  $('leave').addEventListener('click', () => act({ type: 'leave_request' }));
  $('leave-accept').addEventListener('click', () => act({ type: 'leave_accept' }));
  $('leave-decline').addEventListener('click', () => act({ type: 'leave_decline' }));
  $('score-accept').addEventListener('click', () => act({ type: 'accept_score' }));
  $('score-resume').addEventListener('click', () => act({ type: 'resume' }));
  $('replay-slider').addEventListener('input', (event) => view(Number(event.target.value)));
  $('replay-back').addEventListener('click', () => view(Number($('replay-slider').value) - 1));
  $('replay-forward').addEventListener('click', () => view(Number($('replay-slider').value) + 1));
  $('replay-live').addEventListener('click', () => view(Infinity));
  $('invite-copy').addEventListener('click', async () => {
    $('invite-link').select();
    try {
      await navigator.clipboard.writeText($('invite-link').value);
      $('invite-copy').textContent = 'Copied';
    } catch {
      $('invite-copy').textContent = 'Select and copy';
    }
  });
  $('join-button').addEventListener('click', join);
  $('cancel-game').addEventListener('click', async () => {
    await act({ type: 'cancel' });
    if (page.game && page.game.status === 'finished') forgetSeat(id);
  });
  $('choose-black').addEventListener('click', () => act({ type: 'move', move: 'choose black' }));
  $('choose-white').addEventListener('click', () => act({ type: 'move', move: 'choose white' }));
  $('no-drop').addEventListener('click', () => page.swap && act({ type: 'move', move: `${page.swap} --` }));
  $('cancel-swap').addEventListener('click', () => {
    page.swap = null;
    render();
  });
  setInterval(tickClocks, 200);
}

async function join() {
  try {
    const joined = await api(`/api/games/${id}/join`, { method: 'POST', body: { invite: params.get('invite') || undefined } });
    page.seat = { token: joined.token, color: joined.color, spec: joined.game.spec };
    rememberSeat(id, page.seat);
    history.replaceState(null, '', `/game/${id}`);
    showMessage('');
    update(joined.game);
    // the spectator's socket gives way to the seat's
    const spectating = socket;
    connect();
    if (spectating) spectating.close();
  } catch (error) {
    showMessage(error.message);
  }
}

/** The page without a game: no board and no actions, only why and the way back. */
function notShown(error) {
  const missing = error.status === 404;
  document.title = `${missing ? 'No such game' : 'Game unavailable'} · variago`;
  $('connection').textContent = '';
  const main = document.querySelector('main');
  main.className = 'game-missing';
  main.replaceChildren(el('section', { id: 'not-found', class: 'not-found panel' },
    el('h1', {}, missing ? 'No such game' : 'This game cannot be shown'),
    el('p', {}, missing
      ? `There is no game "${id}" here: the link may be mistyped or cut short.`
      : `The server did not give the game: ${error.message}. Reload the page to try again.`),
    el('p', {}, el('a', { href: '/' }, 'To the lobby'), ': start a game, or find yours under "My games".')));
}

const chat = new Chat(id);

async function start() {
  wire();
  chat.wire();
  const account = await showAccount();
  try {
    const { variants } = await api('/api/variants');
    for (const v of variants) page.about.set(v.name, v.about);
  } catch {
    // the descriptions are a nicety; the game works without them
  }
  try {
    const game = await api(`/api/games/${encodeURIComponent(id)}`);
    // a seat of the logged-in account is this browser's too, on every device
    page.seat = page.seat || accountSeat(game, account);
    update(game);
  } catch (error) {
    notShown(error);
    return;
  }
  await chat.load();
  connect();
}

start();
