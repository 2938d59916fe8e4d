// The server's JSON API, the seats this browser holds (localStorage), and small helpers the
// lobby and the game page share.

/** An API failure with the server's reason in words. */
class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Calls the JSON API; resolves to the parsed body, rejects with an ApiError carrying the
 * server's `error` text. */
export async function api(path, { method = 'GET', body, token } = {}) {
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'the server cannot be reached');
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `the server answered ${response.status}`);
  }
  return data;
}

const SEATS_KEY = 'variago.seats';

/** The seats this browser holds: `{gameId: {token, color, spec, at}}`. */
export function seats() {
  try {
    return JSON.parse(localStorage.getItem(SEATS_KEY) || '{}') || {};
  } catch {
    return {};
  }
}

/** Remembers a seat token so the game can be resumed from this browser. */
export function rememberSeat(id, seat) {
  const all = seats();
  all[id] = { ...seat, at: Date.now() };
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** Forgets a seat (the player removed the game from "my games"). */
export function forgetSeat(id) {
  const all = seats();
  delete all[id];
  localStorage.setItem(SEATS_KEY, JSON.stringify(all));
}

/** Creates an element with attributes and children (strings become text, never HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (key === 'text') node.textContent = value;
    else node.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat()) {
    if (child !== undefined && child !== null && child !== false) {
      node.append(child instanceof Node ? child : String(child));
    }
  }
  return node;
}

/** The seat a logged-in account holds in a game (a game view, or a line of a list), kept as
 * this browser's seats are but without a token: the session cookie stands for it on every
 * device. Null when the account holds no seat there. */
export function accountSeat(game, account) {
  if (!account || !game) return null;
  const holder = (side) => (game.accounts ? game.accounts[side] : game.players[side].account);
  const side = ['black', 'white'].find((s) => holder(s) === account);
  if (!side) return null;
  // a seat is kept by the colour it was created with (Galice's choice may have swapped them)
  return { token: null, color: game.swapped ? other(side) : side, spec: game.spec };
}

/** `Black` / `White` from the API's `black` / `white`. */
export function colourName(side) {
  return side === 'black' ? 'Black' : side === 'white' ? 'White' : '';
}

/** The other colour. */
export function other(side) {
  return side === 'black' ? 'white' : 'black';
}

/** The colour a seat plays now in a game view or lobby line. A seat keeps the colour it was
 * created with; in Galice, when the chooser takes Black, the server says `swapped` and both seats
 * change colours. */
export function seatColour(seat, game) {
  if (!seat) return null;
  const swapped = !!game && !!game.swapped;
  return swapped ? other(seat.color) : seat.color;
}

/** Milliseconds as `1:05:09`, `5:09` or `9.4` (tenths under ten seconds). */
export function formatClock(ms) {
  const total = Math.max(0, ms);
  if (total < 10000) return (Math.floor(total / 100) / 10).toFixed(1);
  const s = Math.floor(total / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** A byo-yomi clock as Go servers show it: in the main time, the main time left and the periods
 * waiting (`9:58 +5×30s`); then the current period's time and the periods left, counting the
 * current one (`0:30 (5)`). `leftMs` is all the time left, the main time and the periods. */
export function formatByoYomi(leftMs, periods, periodMs) {
  const main = leftMs - periods * periodMs;
  if (main > 0) return `${formatClock(main)} +${periods}×${periodMs / 1000}s`;
  const left = Math.max(0, leftMs);
  const periodsLeft = Math.max(1, Math.ceil(left / periodMs));
  return `${formatClock(left - (periodsLeft - 1) * periodMs)} (${periodsLeft})`;
}

/** A time control in words: `none`, `10 min`, `5 min + 10 s`, `10 min + 5 × 30 s`. */
export function describeTime(tc) {
  const min = (ms) => (ms % 60000 === 0 ? `${ms / 60000} min` : `${ms / 1000} s`);
  switch (tc && tc.kind) {
    case 'absolute':
      return min(tc.main_ms);
    case 'fischer':
      return `${min(tc.main_ms)} + ${tc.increment_ms / 1000} s`;
    case 'byo-yomi':
      return `${min(tc.main_ms)} + ${tc.periods} × ${tc.period_ms / 1000} s`;
    default:
      return 'no clock';
  }
}

/** A seat in words: `AI level 3` or `person` (and whether the seat is still free). */
export function describePlayer(player, seated) {
  if (player.kind === 'ai') return `AI level ${player.level}`;
  return seated ? 'person' : 'open seat';
}

/** The variants as their designers name them (`Excursion Go 1` for `excursion-1`). */
const VARIANT_NAMES = {
  go: 'Go',
  incursion: 'Incursion Go',
  'incursion-minimal': 'Incursion Go (minimal)',
  'incursion-line': 'Incursion Go (line)',
  stoical: 'Stoical Go',
  'excursion-1': 'Excursion Go 1',
  'excursion-2': 'Excursion Go 2',
  borderline: 'Warhorn: Borderline',
  galice: 'Galice',
  lifeline: 'Square Lifeline',
};

/** A variant's name in words. */
export function variantTitle(name) {
  return VARIANT_NAMES[name] || name;
}

/** Go's ko rules in words. */
const KO_RULES = { simple: 'simple ko', positional: 'positional superko', situational: 'situational superko' };

/** A canonical spec in words: `go:size=9x9` -> `Go 9×9, positional superko`,
 * `incursion:minimal=true,size=13x13` -> `Incursion Go 13×13, minimal true`. */
export function describeSpec(spec) {
  const name = spec.split(':')[0];
  const title = variantTitle(name);
  if (name === 'galice') return `${title}, two 7×7 boards`;
  const options = spec.includes(':') ? spec.slice(spec.indexOf(':') + 1).split(',').map((o) => o.split('=')) : [];
  const size = optionOf(spec, 'size', '19x19').replace('x', '×');
  const words = options.filter(([key]) => key !== 'size' && key !== 'ko').map(([key, value]) => `${key} ${value}`);
  if (name === 'go') words.unshift(KO_RULES[optionOf(spec, 'ko', 'positional')] || `ko ${optionOf(spec, 'ko', '')}`);
  return [`${title} ${size}`, ...words].join(', ');
}

/** A spec's option value, or the fallback: `optionOf('borderline:forces=60', 'forces', '120')`. */
export function optionOf(spec, key, fallback) {
  const options = spec.includes(':') ? spec.slice(spec.indexOf(':') + 1).split(',') : [];
  for (const option of options) {
    const [k, v] = option.split('=');
    if (k === key) return v;
  }
  return fallback;
}
