// Quadrille web app: pick a variant and the seats, play, watch, resume.
// Routes (in the URL's hash): #/ the lobby, #/game/ID the game,
// #/game/ID?t=TOKEN to hold a seat whose token one has, and
// #/join/ID/CODE to take a seat by its invitation (once).

import * as api from './api.js';
import { Board, el as svgEl, pieceGraphic } from './board.js';

const app = document.getElementById('app');
let leave = () => {};   // cleans up the current page (live updates)

/** Builds an HTML element: h('div', {class: 'x'}, child, 'text', ...). */
function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v === true) e.setAttribute(k, '');
    else if (v !== false && v !== null && v !== undefined) e.setAttribute(k, v);
  }
  for (const c of children.flat()) {
    if (c !== null && c !== undefined && c !== false) e.append(c instanceof Node ? c : String(c));
  }
  return e;
}

function route() {
  leave();
  leave = () => {};
  const hash = location.hash.replace(/^#/, '') || '/';
  const m = hash.match(/^\/game\/([a-z0-9]+)(?:\?t=([0-9a-f,]+))?$/);
  const j = hash.match(/^\/join\/([a-z0-9]+)\/([0-9a-f]+)$/);
  if (m) gamePage(m[1], m[2] ? m[2].split(',') : []);
  else if (j) joinPage(j[1], j[2]);
  else lobby();
}
window.addEventListener('hashchange', route);
route();

/** A small inline SVG of a piece, for the legend and the chooser. */
function pieceIcon(variant, army, letter, size = 34) {
  const svg = svgEl('svg', { width: size, height: size, viewBox: '-30 -30 60 60', class: 'icon' });
  svg.appendChild(pieceGraphic(variant, army, letter, 60));
  return svg;
}

function errorBox(err) {
  return h('p', { class: 'error', role: 'alert' }, err.message || String(err));
}

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
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === 5 }, `level ${n}`)));
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

  const record = h('textarea', { id: 'record', rows: 6, cols: 60, placeholder: 'Paste a game record (as exported)' });
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
        h('label', {}, 'Start position ', start),
        h('p', {}, h('button', { type: 'submit', id: 'create' }, 'Start the game')),
        message)),
    h('section', { class: 'panel' }, h('h2', {}, 'Games'), gamesBox),
    h('section', { class: 'panel' },
      h('h2', {}, 'Import a record'),
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

function ordinal(n) {
  return ['1st', '2nd', '3rd', '4th'][n] || `${n + 1}th`;
}

async function gamePage(id, linkTokens) {
  app.replaceChildren(h('p', { class: 'muted' }, 'Loading game…'));
  // Seats from an invitation link: learn which seat each token holds.
  for (const t of linkTokens) {
    try {
      const g = await api.getGame(id, [t]);
      for (const s of g.your_seats) api.holdSeat(id, s, t);
    } catch { /* a bad link gives no seat */ }
  }
  if (linkTokens.length) history.replaceState(null, '', `#/game/${id}`);
  let variant;
  let game;
  try {
    variant = await api.gameVariant(id);
    game = await api.getGame(id, api.heldTokens(id));
  } catch (e) {
    app.replaceChildren(errorBox(e), h('p', {}, h('a', { href: '#/' }, 'Back to the lobby')));
    return;
  }

  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const message = h('div', { class: 'message' });
  const overPanel = h('div', { class: 'over-panel', id: 'over', role: 'status', hidden: true });
  const players = h('ol', { class: 'players', id: 'players' });
  const moves = h('ol', { class: 'moves', id: 'moves' });
  const chooser = h('div', { class: 'chooser', id: 'chooser', hidden: true });
  const boardBox = h('div', { class: 'board-box' }, chooser);
  let manualForward = null;
  const board = new Board(boardBox, variant, { onMove: (options) => choose(options) });

  const rotate = h('button', { type: 'button', id: 'rotate', title: 'Turn the board a quarter' }, 'Rotate board');
  const order = ['north', 'east', 'south', 'west'];
  rotate.addEventListener('click', () => {
    manualForward = order[(order.indexOf(board.forward) + 1) % 4];
    board.setForward(manualForward);
  });

  async function send(move) {
    message.replaceChildren();
    const token = api.heldSeats(id)[game.to_move];
    try {
      game = await api.playMove(id, move.text, token, game.ply);
      show();
    } catch (e) {
      message.replaceChildren(errorBox(e));
      refresh();
    }
  }

  /** One move goes at once; a promotion asks which piece first. */
  function choose(options) {
    if (options.length === 1) {
      send(options[0]);
      return;
    }
    const army = variant.players[game.to_move].army;
    chooser.replaceChildren(h('p', {}, 'Promote to:'), ...options.map((m) => {
      // An optional promotion also offers the plain move (no letter).
      const stays = !m.promotion;
      const moving = game.board.find((p) => p.cell === m.from);
      const letter = stays ? (moving ? moving.letter.toUpperCase() : '?') : m.promotion.toUpperCase();
      const kind = variant.pieces.find((p) => p.letter === letter);
      const label = stays ? `No promotion${kind ? ` (stay ${kind.name})` : ''}` : (kind ? kind.name : letter);
      return h('button', {
        type: 'button', class: 'promo', 'data-promotion': m.promotion || '', title: label,
        onclick: () => { chooser.hidden = true; send(m); },
      }, pieceIcon(variant, army, letter, 44), label);
    }), h('button', { type: 'button', onclick: () => { chooser.hidden = true; } }, 'Cancel'));
    chooser.hidden = false;
  }

  function show() {
    const held = api.heldSeats(id);
    const mine = game.your_seats;
    // Face the board to the viewer's seat (the player to move when one
    // browser holds several seats), unless turned by hand.
    const seat = mine.length === 1 ? mine[0]
      : mine.includes(game.to_move) ? game.to_move : mine[0];
    const forward = manualForward || (seat !== undefined ? variant.players[seat].forward : 'north');
    board.forward = forward;
    board.update(game);

    const name = (i) => variant.players[i].name;
    const myOut = mine.filter((p) => game.out.includes(p));
    const draw = game.outcome && game.outcome.ranking.length === 1;
    if (game.status === 'over') {
      const o = game.outcome;
      status.textContent = draw
        ? `Game over: draw (${o.reason}).`
        : `Game over: ${o.ranking[0].map(name).join(' and ')} won (${o.reason}).`;
    } else if (game.status === 'stuck') {
      status.textContent = 'Nobody can move; the game stops here.';
    } else if (myOut.length && !mine.some((p) => !game.out.includes(p))) {
      status.textContent = `You are out: ${myOut.map(name).join(' and ')} ${myOut.length > 1 ? 'were' : 'was'} checkmated or dropped out (${ordinal(game.out.indexOf(myOut[0]))} out). The game goes on without you.`;
    } else {
      const who = name(game.to_move);
      status.textContent = mine.includes(game.to_move)
        ? `${who} to move — your move.${game.attacked_royals.length ? ' Check!' : ''}`
        : `${who} to move${game.ai_thinking ? ' (AI thinking…)' : ''}.`;
    }
    status.className = `status ${game.status === 'playing' && mine.includes(game.to_move) ? 'yours' : ''}${myOut.length && game.status === 'playing' ? ' out' : ''}`;
    overPanel.hidden = game.status !== 'over';
    if (game.status === 'over') {
      const o = game.outcome;
      const won = (p) => o.ranking[0].includes(p);
      // One side's holder is told "you"; hot seat (both sides) is not.
      const side = mine.length && (mine.every(won) || !mine.some(won));
      const title = draw ? 'Draw'
        : side ? (mine.some(won) ? 'You won' : 'You lost')
          : `${o.ranking[0].map(name).join(' and ')} won`;
      overPanel.replaceChildren(
        h('h3', {}, title),
        h('p', {}, `Reason: ${o.reason}.`),
        draw ? h('p', {}, `Shared by ${o.ranking[0].map(name).join(', ')}.`)
          : h('ol', {}, o.ranking.map((group) => h('li', {}, group.map(name).join(' and ')
            + (group.length > 1 ? ' (shared)' : '') + (group.some((p) => mine.includes(p)) ? ' — you' : '')))));
    }

    const place = {};
    if (game.outcome) game.outcome.ranking.forEach((group, i) => group.forEach((p) => { place[p] = i; }));
    players.replaceChildren(...game.seats.map((s) => {
      const p = variant.players[s.player];
      const army = variant.armies[p.army];
      const out = game.out.indexOf(s.player);
      const tags = [];
      if (s.kind === 'ai') tags.push(`AI level ${s.level}`);
      if (s.invited) tags.push('invited, not joined yet');
      if (mine.includes(s.player)) tags.push('you');
      if (out >= 0) tags.push(`out (${ordinal(out)} out)`);
      if (s.player in place) tags.push(draw ? 'draw' : `${ordinal(place[s.player])} place`);
      return h('li', {
        class: [game.to_move === s.player ? 'to-move' : '', out >= 0 ? 'out' : ''].join(' '),
        'data-player': s.player,
      },
      h('span', { class: 'swatch', style: `background:${army.colour}` }),
      h('span', { class: 'pname' }, p.name),
      variant.armies.length < variant.players.length
        ? h('small', {}, ` moves ${army.name}, home ${p.home_text}`) : '',
      tags.length ? h('small', { class: 'tags' }, ` — ${tags.join(', ')}`) : '');
    }));

    moves.replaceChildren(...game.moves.map((m, i) => h('li', { value: i + 1 },
      h('span', { class: 'swatch small', style: `background:${variant.armies[variant.players[m.player].army].colour}` }),
      `${name(m.player)}: ${m.text}`)));
    moves.scrollTop = moves.scrollHeight;

    const linkRow = (s, url, cls, label) => {
      const input = h('input', { readonly: true, value: url, size: 40, class: cls, 'data-seat': s });
      return h('div', {}, h('label', {}, label, input),
        h('button', { type: 'button', onclick: () => { input.select(); navigator.clipboard?.writeText(url); } }, 'Copy'));
    };
    const open = Object.entries(api.invites(id)).filter(([s]) => game.seats[+s] && game.seats[+s].invited);
    links.replaceChildren(
      ...open.map(([s, c]) => linkRow(s, `${location.origin}/#/join/${id}/${c}`, 'invitation', `Invite ${name(+s)}: `)),
      ...Object.entries(held).map(([s, t]) => linkRow(s, `${location.origin}/#/game/${id}?t=${t}`, 'invite', `${name(+s)}: `)));
  }

  const links = h('div', { class: 'links' });
  const legend = h('table', { class: 'legend', id: 'legend' },
    variant.pieces.map((p) => h('tr', {},
      h('td', {}, pieceIcon(variant, 0, p.letter)),
      h('td', {}, h('b', {}, p.name), ` (${p.letter}${p.royal ? ', royal' : ''})`, h('br'),
        h('code', {}, p.betza), h('ul', {}, p.moves.map((line) => h('li', {}, line)))))));
  const key = h('ul', { class: 'key' },
    variant.shades.filter((s) => s.label).map((s) =>
      h('li', {}, h('span', { class: 'swatch', style: `background:${s.colour}` }), s.label)),
    variant.lines.filter((l) => l.label).map((l) =>
      h('li', {}, h('span', { class: 'line-swatch', style: `background:${l.colour}` }), l.label)),
    h('li', {}, h('span', { class: 'swatch last' }), 'last move'),
    h('li', {}, h('span', { class: 'swatch attacked' }), 'royal piece under attack'),
    variant.players.some((p) => p.home.length)
      ? h('li', {}, h('span', { class: 'line-swatch home' }), 'home of the player to move') : '');

  app.replaceChildren(h('div', { class: 'game' },
    h('div', { class: 'left' }, boardBox, h('div', { class: 'controls' }, rotate,
      h('a', { href: api.recordUrl(id), download: `quadrille-${id}.txt`, class: 'button' }, 'Export record'),
      h('a', { href: '#/', class: 'button' }, 'Lobby'))),
    h('div', { class: 'right' },
      h('h2', {}, variant.title, h('small', { class: 'muted' }, ` game ${id}`)),
      status, overPanel, message,
      h('h3', {}, 'Players'), players,
      h('h3', {}, 'Moves'), moves,
      h('details', { open: Object.keys(api.heldSeats(id)).length > 0 },
        h('summary', {}, 'Seat links (keep them secret: a link lets its holder move)'), links,
        h('p', { class: 'muted' }, 'Spectators: ', h('code', {}, `${location.origin}/#/game/${id}`))),
      h('h3', {}, 'Board'), key,
      h('h3', {}, 'Pieces'), legend)));
  show();

  let busy = false;
  let again = false;
  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      game = await api.getGame(id, api.heldTokens(id));
      // Reached the server again: an old "Failed to fetch" is stale.
      message.replaceChildren();
      show();
    } catch (e) {
      message.replaceChildren(errorBox(e));
    }
    busy = false;
    if (again) { again = false; refresh(); }
  }
  const stop = api.watch(id, () => refresh());
  leave = stop;
}
