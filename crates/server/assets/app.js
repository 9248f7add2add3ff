// Quadrille web app: pick a variant and the seats, play, watch, resume.
// Routes (in the URL's hash): #/ the lobby, #/game/ID the game,
// #/game/ID?t=TOKEN to hold a seat whose token one has, and
// #/join/ID/CODE to take a seat by its invitation (once).

import * as api from './api.js';
import { h, errorBox } from './dom.js';
import { gamePage } from './game.js';

const app = document.getElementById('app');
let leave = () => {};   // cleans up the current page (live updates)

function route() {
  leave();
  leave = () => {};
  const hash = location.hash.replace(/^#/, '') || '/';
  const m = hash.match(/^\/game\/([a-z0-9]+)(?:\?t=([0-9a-f,]+))?$/);
  const j = hash.match(/^\/join\/([a-z0-9]+)\/([0-9a-f]+)$/);
  if (m) gamePage(app, m[1], m[2] ? m[2].split(',') : [], (f) => { leave = f; });
  else if (j) joinPage(j[1], j[2]);
  else lobby();
}
window.addEventListener('hashchange', route);
route();

// ----- Lobby: new game, games list, import -----

async function lobby() {
  app.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  let variants;
  try {
    variants = await api.listVariants();
  } catch (e) {
    app.replaceChildren(errorBox(e));
    return;
  }
  const seatsBox = h('div', { class: 'seats' });
  const about = h('p', { class: 'muted about' });
  const message = h('div');
  const select = h('select', { id: 'variant', name: 'variant' },
    variants.map((v) => h('option', { value: v.name }, `${v.title} (${v.players} players)`)));
  const start = h('input', { id: 'start', placeholder: 'optional: a position string to start from', size: 60 });
  const hotSeat = h('input', { type: 'checkbox', id: 'hot-seat' });
  const clocks = [
    ['', 'No clock'],
    ['fischer:60000:0', '1+0 bullet'], ['fischer:180000:2000', '3+2 blitz'],
    ['fischer:300000:3000', '5+3 blitz'], ['fischer:600000:5000', '10+5 rapid'],
    ['fischer:900000:10000', '15+10 rapid'], ['fischer:1800000:20000', '30+20 classical'],
    ['move:10000', '10 s per move'], ['move:30000', '30 s per move'], ['move:60000', '1 min per move'],
  ];
  const clock = h('select', { id: 'clock', name: 'clock' },
    clocks.map(([v, t]) => h('option', { value: v }, t)));
  let current = null;

  async function showSeats() {
    const described = await api.describeVariant(select.value);
    if (described.name !== select.value) return;  // changed again meanwhile
    current = described;
    seatsBox.dataset.variant = current.name;
    about.textContent = current.description;
    seatsBox.replaceChildren(...current.players.map((p, i) => {
      const army = current.armies[p.army];
      const kind = h('select', { class: 'seat-kind', 'data-seat': i },
        h('option', { value: 'human' }, 'Human'), h('option', { value: 'ai' }, 'AI'));
      const level = h('select', { class: 'seat-level', title: 'AI strength' },
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === 5 },
          `level ${n}${n === 1 ? ' (weakest)' : n === 8 ? ' (full strength)' : ''}`)));
      const time = h('select', { class: 'seat-time', title: 'AI time per move' },
        [[500, '0.5 s'], [1000, '1 s'], [2000, '2 s'], [5000, '5 s'], [10000, '10 s']]
          .map(([ms, t]) => h('option', { value: ms, selected: ms === 1000 }, `${t} per move`)));
      const aiOpts = h('span', { class: 'ai-opts', hidden: true }, level, time);
      kind.addEventListener('change', () => { aiOpts.hidden = kind.value !== 'ai'; });
      return h('div', { class: 'seat' },
        h('span', { class: 'swatch', style: `background:${army.colour}` }),
        h('span', { class: 'seat-name' }, p.name,
          current.armies.length < current.players.length ? h('small', {}, ` (${army.name} army, home ${p.home_text})`) : ''),
        kind, aiOpts);
    }));
  }
  select.addEventListener('change', showSeats);

  async function create(e) {
    e.preventDefault();
    message.replaceChildren();
    const seats = [...seatsBox.querySelectorAll('.seat')].map((row) => {
      const kind = row.querySelector('.seat-kind').value;
      return kind === 'ai'
        ? { kind, level: +row.querySelector('.seat-level').value, time_ms: +row.querySelector('.seat-time').value }
        : { kind };
    });
    const req = { variant: select.value, seats };
    if (start.value.trim()) req.start = start.value.trim();
    const [kind, a, b] = clock.value.split(':');
    if (kind === 'fischer') req.clock = { kind, base_ms: +a, inc_ms: +b };
    if (kind === 'move') req.clock = { kind, move_ms: +a };
    // Unless hot seat: the first human seat is the creator's, the others
    // get invitation links.
    const mine = seats.findIndex((s) => s.kind === 'human');
    if (!hotSeat.checked && mine >= 0) req.seat = mine;
    try {
      const created = await api.createGame(req);
      created.tokens.forEach((t, i) => { if (t) api.holdSeat(created.id, i, t); });
      (created.invites || []).forEach((c, i) => { if (c) api.keepInvite(created.id, i, c); });
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      message.replaceChildren(errorBox(err));
    }
  }

  const record = h('textarea', { id: 'record', rows: 6, cols: 60, placeholder: 'Paste a game record (as exported), or PGN of a two-player game' });
  const importMsg = h('div');
  async function doImport(e) {
    e.preventDefault();
    importMsg.replaceChildren();
    try {
      const created = await api.importGame(record.value);
      created.tokens.forEach((t, i) => { if (t) api.holdSeat(created.id, i, t); });
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      importMsg.replaceChildren(errorBox(err));
    }
  }

  /** One click to a game against the AI: the first seat is the person's. */
  async function quick(variant, players) {
    const ai = { kind: 'ai', level: 5, time_ms: 1000 };
    const seats = [{ kind: 'human' }, ...Array(players - 1).fill(ai)];
    try {
      const created = await api.createGame({ variant, seats });
      created.tokens.forEach((t, i) => { if (t) api.holdSeat(created.id, i, t); });
      location.hash = `#/game/${created.id}`;
    } catch (err) {
      message.replaceChildren(errorBox(err));
    }
  }

  const gamesBox = h('div', {}, h('p', { class: 'muted' }, 'Loading games…'));
  app.replaceChildren(
    h('section', { class: 'panel quick' },
      h('h2', {}, 'Quick start'),
      h('p', {},
        h('button', { type: 'button', id: 'quick-chess', onclick: () => quick('chess', 2) }, 'Play the computer (chess)'), ' ',
        h('button', { type: 'button', id: 'quick-magna-carta', onclick: () => quick('magna-carta', 2) }, 'Magna Carta against the computer'), ' ',
        h('button', { type: 'button', id: 'quick-four', onclick: () => quick('ariana', 4) }, 'Four players with three AIs (Ariana)'))),
    h('section', { class: 'panel' },
      h('h2', {}, 'New game'),
      h('form', { onsubmit: create, id: 'new-game' },
        h('label', {}, 'Variant ', select), about,
        h('h3', {}, 'Seats'), seatsBox,
        h('p', {}, h('label', {}, hotSeat, ' Hot seat: this screen plays every human seat'),
          h('br'), h('small', { class: 'muted' }, 'Otherwise you play the first human seat and get an invitation link for each other one.')),
        h('p', {}, h('label', {}, 'Clock ', clock), ' ',
          h('small', { class: 'muted' }, 'minutes + seconds added per move, or a fixed time per move; the AI keeps to it too')),
        h('label', {}, 'Start position ', start),
        h('p', {}, h('button', { type: 'submit', id: 'create' }, 'Start the game')),
        message)),
    h('section', { class: 'panel' }, h('h2', {}, 'Games'), gamesBox),
    h('section', { class: 'panel' },
      h('h2', {}, 'Import a record or PGN'),
      h('form', { onsubmit: doImport }, record, h('p', {}, h('button', { type: 'submit' }, 'Import')), importMsg)),
  );
  await showSeats();
  try {
    const games = await api.listGames();
    gamesBox.replaceChildren(games.length
      ? h('table', { class: 'games' },
        h('tr', {}, h('th', {}, 'Game'), h('th', {}, 'Players'), h('th', {}, 'Moves'), h('th', {}, 'Status'), h('th', {}, 'Your seats')),
        games.map((g) => {
          const held = Object.keys(api.heldSeats(g.id)).length;
          return h('tr', {},
            h('td', {}, h('a', { href: `#/game/${g.id}` }, g.title), h('small', { class: 'muted' }, ` ${g.id}`)),
            h('td', {}, g.players.join(', ')),
            h('td', {}, g.ply),
            h('td', {}, g.status === 'playing' ? `${g.players[g.to_move]} to move` : g.status),
            h('td', {}, held ? String(held) : '—'));
        }))
      : h('p', { class: 'muted' }, 'No games yet.'));
  } catch (e) {
    gamesBox.replaceChildren(errorBox(e));
  }
}

// ----- A game -----

/** Takes the seat an invitation offers, then opens the game. */
async function joinPage(id, code) {
  app.replaceChildren(h('p', { class: 'muted' }, 'Taking your seat…'));
  try {
    const joined = await api.joinGame(id, code);
    api.holdSeat(id, joined.seat, joined.token);
    history.replaceState(null, '', `#/game/${id}`);
    route();
  } catch (e) {
    app.replaceChildren(errorBox(e),
      h('p', {}, h('a', { href: `#/game/${id}` }, 'Watch the game'), ' or ', h('a', { href: '#/' }, 'back to the lobby')));
  }
}

