// The lobby: create a game (variant, options, size, komi, clock, colour, opponent), join open
// games, watch games in progress, replay finished ones, and resume "my games" (the seat tokens
// this browser holds, and when logged in the account's games, on every device).

import { api, seats, rememberSeat, forgetSeat, accountSeat, el, colourName, describeTime, describePlayer, describeSpec, seatColour, variantTitle } from './api.js';
import { showAccount, ratingOf } from './account.js';

const $ = (selector) => document.getElementById(selector);
/** How many of "my games" the lobby looks up. */
const MINE_SHOWN = 20;
/** Open and running games idle for longer are left out of the public lists (abandoned, most
 * likely); their players still find them under "my games". */
const IDLE_HIDDEN_MS = 24 * 3600 * 1000;
const variants = new Map();

function fillVariants(list) {
  for (const v of list) variants.set(v.name, v);
  $('variant').replaceChildren(...list.map((v) => el('option', { value: v.name }, variantTitle(v.name))));
  const wanted = new URLSearchParams(location.search).get('variant');
  if (wanted && variants.has(wanted)) $('variant').value = wanted;
  variantChanged();
}

/** Shows the variant's description, rules link and options. */
function variantChanged() {
  const v = variants.get($('variant').value);
  if (!v) return;
  // an error about the variant left is no longer true
  $('create-error').textContent = '';
  // Galice: two fixed 7x7 boards, and the colour names the pie role
  const galice = v.name === 'galice';
  $('variant-about').replaceChildren(`${v.about}. `, el('a', { href: `/rules/${v.name}`, target: '_blank' }, 'Rules'),
    galice ? ' Your colour is your pie role: Black makes the setup, White chooses the colours.' : '',
    v.name === 'lifeline' ? " No komi and no pass: the last player to place wins. White may swap on its first turn and play Black's stones." : '');
  $('size').disabled = galice;
  const fields = v.options.filter((o) => o.key !== 'komi').map((o) => {
    const inputId = `option-${o.key}`;
    const choices = o.values.includes('|') ? o.values.split('|').map((s) => s.trim()) : null;
    const input = choices
      ? el('select', { id: inputId, 'data-key': o.key, 'data-default': o.default },
        choices.map((c) => el('option', { value: c, selected: c === o.default }, c)))
      : el('input', { id: inputId, 'data-key': o.key, 'data-default': o.default, value: o.default, 'aria-describedby': `${inputId}-hint` });
    return el('div', { class: 'field' },
      el('label', { for: inputId }, o.key),
      input,
      choices ? null : el('span', { class: 'hint', id: `${inputId}-hint` }, o.values));
  });
  const legend = el('legend', {}, 'Options');
  $('options').replaceChildren(legend, ...fields);
  $('options').hidden = fields.length === 0;
  const komi = v.options.find((o) => o.key === 'komi');
  $('komi').value = komi ? komi.default : '';
  $('komi').disabled = !komi;
  if (v.name === 'borderline') $('size').value = '19';
  scaleForces();
  $('quick-ai').textContent = `Play the AI now: ${variantTitle(v.name)}${galice ? '' : ', 9×9'}`;
}

/** One click to a game against the AI (level 3, no clock): the variant chosen, with its
 * default options, on 9×9 (Galice on its two 7×7 boards), a random colour. */
async function quickGame() {
  $('quick-error').textContent = '';
  const name = $('variant').value;
  const request = { variant: name, time_control: { kind: 'none' }, color: 'random', opponent: { kind: 'ai', level: 3 } };
  if (name !== 'galice') request.size = '9';
  await startGame(request, $('quick-ai'), $('quick-error'));
}

/** Creates the game `request` asks for and opens its page, this browser holding the seat; on a
 * refusal, the server's reason in `message` and `button` usable again. */
async function startGame(request, button, message) {
  button.disabled = true;
  try {
    const created = await api('/api/games', { method: 'POST', body: request });
    rememberSeat(created.id, { token: created.token, color: created.color, invite: created.invite, spec: created.game.spec });
    location.href = `/game/${created.id}`;
  } catch (error) {
    message.textContent = error.message;
    button.disabled = false;
  }
}

/** Borderline's forces follow the board: the rulebook's 120 stones on its 19×19 board, about a
 * third of the points, so a smaller board gets as many for its size (27 on 9×9, 56 on 13×13)
 * rather than more stones than points. */
function scaleForces() {
  const forces = document.getElementById('option-forces');
  if ($('variant').value !== 'borderline' || !forces) return;
  const n = Number($('size').value);
  forces.value = String(Math.round((120 * n * n) / 361));
}

/** The variant spec: the name and the options changed from their defaults. */
function spec() {
  const name = $('variant').value;
  const changed = [...$('options').querySelectorAll('[data-key]')]
    .filter((input) => input.value.trim() !== input.dataset.default)
    .map((input) => `${input.dataset.key}=${input.value.trim()}`);
  return changed.length ? `${name}:${changed.join(',')}` : name;
}

function timeChanged() {
  const kind = $('time').value;
  $('main-field').hidden = kind === 'none';
  $('increment-field').hidden = kind !== 'fischer';
  $('periods-field').hidden = kind !== 'byo-yomi';
  $('period-field').hidden = kind !== 'byo-yomi';
}

function timeControl() {
  const kind = $('time').value;
  const main = Math.round(Number($('main').value) * 60000);
  switch (kind) {
    case 'absolute':
      return { kind, main_ms: main };
    case 'fischer':
      return { kind, main_ms: main, increment_ms: Math.round(Number($('increment').value) * 1000) };
    case 'byo-yomi':
      return { kind, main_ms: main, periods: Number($('periods').value), period_ms: Math.round(Number($('period').value) * 1000) };
    default:
      return { kind: 'none' };
  }
}

async function create(event) {
  event.preventDefault();
  $('create-error').textContent = '';
  const ai = $('opponent').value === 'ai';
  const request = {
    variant: spec(),
    size: $('size').disabled ? undefined : $('size').value,
    time_control: timeControl(),
    color: $('color').value,
    opponent: ai ? { kind: 'ai', level: Number($('level').value) } : { kind: 'human' },
    public: ai ? true : $('public').checked,
    rated: !ai && $('rated').checked ? true : undefined,
  };
  if (!$('komi').disabled && $('komi').value !== '') request.komi = Number($('komi').value);
  await startGame(request, $('create-button'), $('create-error'));
}

/** One game line: its spec, players, clock and a link. */
function gameItem(game, action) {
  const accounts = game.accounts || {};
  const variant = game.spec.split(':')[0];
  // the seats in words, the accounts with their ratings in the game's variant once known
  const line = (ratings) => ['black', 'white'].map((s, i) => `${colourName(s)}: ${accounts[s]
    ? `${accounts[s]}${ratings[i] ? ` (${ratings[i]})` : ''}` : describePlayer(game.players[s], game.seated[s])}`).join(', ')
    + (game.rated ? ' (rated)' : '');
  const who = el('span', { class: 'who' }, line(['', '']));
  Promise.all(['black', 'white'].map((s) => ratingOf(accounts[s], variant))).then((ratings) => {
    who.textContent = line(ratings);
  });
  const mine = seats()[game.id] || accountSeat(game, account);
  // one's own open game is shown, never joined
  return el('li', { class: 'game', 'data-id': game.id },
    el('a', { href: `/game/${game.id}`, class: 'go' }, mine && action === 'Join' ? 'Show' : action),
    el('span', { class: 'spec', title: game.spec }, describeSpec(game.spec)),
    who,
    el('span', { class: 'time' }, describeTime(game.time_control)),
    game.spectators && game.status !== 'finished' ? el('span', { class: 'watching' }, `${game.spectators} watching`) : null,
    game.result ? el('span', { class: 'result' }, game.result === 'Void' ? 'left by agreement, no result' : game.result) : null,
    mine ? el('span', { class: 'badge' }, `you: ${colourName(seatColour(mine, game))}`) : null);
}

async function fillList(status, action) {
  const list = $(status);
  try {
    const { games } = await api(`/api/games?status=${status}&limit=30`);
    // the games in progress of the variant chosen to watch (all by default)
    const watched = $('watch-variant').value;
    const shown = status === 'running' && watched ? games.filter((g) => g.spec.split(':')[0] === watched) : games;
    const lively = status === 'finished' ? shown : shown.filter((g) => Date.now() - g.updated_ms < IDLE_HIDDEN_MS);
    const idle = shown.length - lively.length;
    const note = idle ? [el('li', { class: 'empty idle' }, `${idle} game${idle === 1 ? '' : 's'} idle for over a day not shown.`)] : [];
    const items = lively.length ? lively.map((g) => gameItem(g, action)) : [el('li', { class: 'empty' }, 'None right now.')];
    list.replaceChildren(...items, ...note);
  } catch (error) {
    list.replaceChildren(el('li', { class: 'message' }, error.message));
  }
}

/** "My games": the seats this browser holds and, when logged in, the account's games (a seat
 * taken on another device included), the most recent first. */
async function mine() {
  const held = new Map(Object.entries(seats()).map(([id, seat]) => [id, { ...seat, local: true }]));
  if (account) {
    try {
      const { games } = await api(`/api/games?mine=1&limit=${MINE_SHOWN}`);
      for (const game of games) {
        if (!held.has(game.id)) held.set(game.id, { ...accountSeat(game, account), at: game.updated_ms });
      }
    } catch (error) {
      $('mine-error').textContent = `Your account's games cannot be listed: ${error.message}`;
    }
  }
  return [...held].sort((a, b) => b[1].at - a[1].at).slice(0, MINE_SHOWN);
}

async function fillMine() {
  const held = await mine();
  if (!held.length) {
    $('mine').replaceChildren(el('li', { class: 'empty' }, 'Games you create or join appear here.'));
    return;
  }
  const items = await Promise.all(held.map(async ([id, seat]) => {
    let state = '';
    let turn = false;
    let colour = seat.color;
    let game = null;
    try {
      game = await api(`/api/games/${id}`);
      colour = seatColour(seat, game);
      turn = game.status === 'playing' && game.to_move === colour;
      const result = game.result === 'Void' ? 'by agreement, no result' : game.result;
      state = game.status === 'finished' ? `finished ${result}` : turn ? 'your turn' : game.status;
    } catch (error) {
      state = error.status === 404 ? 'gone' : 'unreachable';
    }
    const finished = game && game.status === 'finished';
    const spec = (game && game.spec) || seat.spec || '';
    return el('li', { class: `game${turn ? ' your-turn' : ''}`, 'data-id': id, 'data-status': game ? game.status : 'unknown' },
      el('a', { href: `/game/${id}`, class: 'go' }, finished ? 'Replay' : 'Resume'),
      el('span', { class: 'spec', title: spec }, spec ? describeSpec(spec) : ''),
      el('span', { class: 'who' }, `you: ${colourName(colour)}`),
      el('span', { class: 'state' }, state),
      abandonable(game) ? resignButton(id, seat) : null,
      game && game.status === 'open' ? cancelButton(id, seat) : null,
      // an account's games stay on its list; a browser's seat can be forgotten
      seat.local && !(game && game.status === 'open') ? forgetButton(id, seat, game) : null);
  }));
  $('mine').replaceChildren(...items);
}

/** Whether a game is under way: forgetting it would leave it with nobody to end it. */
function running(game) {
  return !!game && (game.status === 'playing' || game.status === 'scoring');
}

/**
 * "forget": at once for a game that is over, gone or open; for a game under way, "Resign and
 * forget" asked first and the game resigned before it leaves the list, so that it is never left
 * running with nobody to end it.
 */
function forgetButton(id, seat, game) {
  if (running(game)) {
    return resignAsked(id, seat, { action: 'forget', label: `Forget game ${id}`, ask: 'forget', confirm: 'Resign and forget' },
      () => forgetSeat(id));
  }
  return el('button', { type: 'button', class: 'linkish', 'data-action': 'forget', 'aria-label': `Forget game ${id}`, onclick: () => {
    forgetSeat(id);
    fillMine();
  } }, 'forget');
}

/** "Cancel" for an open game nobody has joined: it leaves the open games at once, and this
 * browser forgets it. */
function cancelButton(id, seat) {
  return el('button', { type: 'button', class: 'linkish', 'data-action': 'cancel', 'aria-label': `Cancel game ${id}`, onclick: async () => {
    try {
      await api(`/api/games/${id}/actions`, { method: 'POST', body: { type: 'cancel' }, token: seat.token });
      forgetSeat(id);
    } catch (error) {
      $('mine-error').textContent = error.message;
    }
    refresh();
  } }, 'cancel');
}

/** Whether a game of "my games" can be given up from here: one against the AI, in progress. */
function abandonable(game) {
  const ai = game && ['black', 'white'].some((s) => game.players[s].kind === 'ai');
  return ai && running(game);
}

/** "Resign", then "Confirm resignation": ends a game against the AI left unfinished. */
function resignButton(id, seat) {
  return resignAsked(id, seat, { action: 'resign', label: `Resign game ${id}`, ask: 'resign', confirm: 'Confirm resignation' });
}

/**
 * A link that asks (`data-action` ACTION), then a button that confirms (`confirm-ACTION`):
 * the seat's game is resigned, `resigned` runs, and "my games" is filled again (a refusal is
 * shown above it).
 */
function resignAsked(id, seat, words, resigned = () => {}) {
  const confirm = el('button', { type: 'button', class: 'danger small', hidden: true, 'data-action': `confirm-${words.action}`, onclick: async () => {
    confirm.disabled = true;
    try {
      await api(`/api/games/${id}/actions`, { method: 'POST', body: { type: 'resign' }, token: seat.token });
      resigned();
    } catch (error) {
      $('mine-error').textContent = error.message;
    }
    fillMine();
  } }, words.confirm);
  const ask = el('button', { type: 'button', class: 'linkish', 'data-action': words.action, 'aria-label': words.label, onclick: () => {
    ask.hidden = true;
    confirm.hidden = false;
    confirm.focus();
  } }, words.ask);
  return el('span', { class: 'abandon' }, ask, confirm);
}

function refresh() {
  fillMine();
  fillList('open', 'Join');
  fillList('running', 'Watch');
  fillList('finished', 'Replay');
}

let account = null;

async function start() {
  // a rated game is offered to an account, against a person
  account = await showAccount();
  $('rated-field').hidden = !account || $('opponent').value === 'ai';
  $('level').replaceChildren(...Array.from({ length: 10 }, (_, i) => el('option', { value: i + 1, selected: i === 2 }, `${i + 1}${i === 0 ? ' (weakest)' : i === 9 ? ' (strongest)' : ''}`)));
  $('variant').addEventListener('change', variantChanged);
  $('time').addEventListener('change', timeChanged);
  $('size').addEventListener('change', scaleForces);
  $('opponent').addEventListener('change', () => {
    const ai = $('opponent').value === 'ai';
    $('level-field').hidden = !ai;
    $('public-field').hidden = ai;
    $('rated-field').hidden = ai || !account;
  });
  $('create-form').addEventListener('submit', create);
  $('quick-ai').addEventListener('click', quickGame);
  $('watch-variant').addEventListener('change', () => fillList('running', 'Watch'));
  timeChanged();
  try {
    const { variants: list } = await api('/api/variants');
    fillVariants(list);
    $('watch-variant').append(...list.map((v) => el('option', { value: v.name }, variantTitle(v.name))));
  } catch (error) {
    $('create-error').textContent = `The variants cannot be loaded: ${error.message}`;
  }
  refresh();
  setInterval(refresh, 10000);
}

start();
