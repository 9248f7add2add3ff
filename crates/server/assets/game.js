// A game's page: the board, the players and their clocks, the move list
// with review (click a move, arrow keys, buttons), the game actions
// (resign, draw, takeback, rematch), exports and settings.

import * as api from './api.js';
import { Board } from './board.js';
import { h, errorBox, pieceIcon, ordinal, clockText } from './dom.js';
import { setLetters } from './pieces.js';

/** A short sound for a move (a capture sounds lower), if enabled. */
let audio = null;
function sound(capture) {
  if (!api.setting('sound')) return;
  try {
    audio = audio || new AudioContext();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.frequency.value = capture ? 330 : 520;
    g.gain.setValueAtTime(0.15, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.13);
  } catch { /* no audio: silent */ }
}

export async function gamePage(app, id, linkTokens, setLeave) {
  app.replaceChildren(h('p', { class: 'muted' }, 'Loading game…'));
  // Seats from a seat link: learn which seat each token holds.
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
  setLetters(api.setting('letters'));
  const two = variant.players.length === 2;
  const name = (i) => variant.players[i].name;
  const colour = (i) => variant.armies[variant.players[i].army].colour;

  const status = h('p', { class: 'status', id: 'status', 'aria-live': 'polite' });
  const message = h('div', { class: 'message' });
  const overPanel = h('div', { class: 'over-panel', id: 'over', role: 'status', hidden: true });
  const offerBox = h('div', { class: 'offer', id: 'offer', role: 'status' });
  const actions = h('div', { class: 'actions', id: 'actions' });
  const players = h('ol', { class: 'players', id: 'players' });
  const moves = h('ol', { class: `moves ${two ? 'two' : 'many'}`, id: 'moves', 'aria-label': 'Moves' });
  const reviewBanner = h('div', { class: 'review-banner', id: 'review', hidden: true });
  const chooser = h('div', { class: 'chooser', id: 'chooser', hidden: true });
  const boardBox = h('div', { class: 'board-box' }, chooser);
  let manualForward = null;
  const board = new Board(boardBox, variant, { onMove: (options) => choose(options) });

  // Review: `shown` is the ply on the board (null: the live position).
  let shown = null;
  // Every position, fetched when review starts, for the moves that stood
  // then (a takeback and another move keep the count but not the moves).
  let positions = null;
  let positionsOf = '';
  async function positionsNow() {
    const key = game.moves.map((m) => m.text).join(' ');
    if (!positions || positionsOf !== key) {
      positions = await api.positions(id);
      positionsOf = key;
    }
    return positions;
  }
  async function showPly(n) {
    const target = Math.max(0, Math.min(n, game.ply));
    if (target === game.ply) {
      shown = null;
      show();
      return;
    }
    try {
      const list = await positionsNow();
      shown = target;
      const p = list[target];
      board.update({ ...p, legal_moves: [], to_move: null });
      showReview();
    } catch (e) {
      message.replaceChildren(errorBox(e));
    }
  }
  const step = (d) => showPly((shown ?? game.ply) + d);
  const nav = (label, idText, title, fn) => h('button', { type: 'button', id: idText, title, 'aria-label': title, onclick: fn }, label);
  const navBar = h('div', { class: 'nav', role: 'toolbar', 'aria-label': 'Review the game' },
    nav('«', 'first', 'First position (Home)', () => showPly(0)),
    nav('◀', 'prev', 'Previous move (←)', () => step(-1)),
    nav('▶', 'next', 'Next move (→)', () => step(1)),
    nav('»', 'last', 'Live position (End)', () => showPly(game.ply)));
  function onKey(e) {
    if (e.target.closest?.('input, select, textarea, svg.board')) return;
    const k = { ArrowLeft: () => step(-1), ArrowRight: () => step(1), Home: () => showPly(0), End: () => showPly(game.ply) }[e.key];
    if (k) { e.preventDefault(); k(); }
  }
  document.addEventListener('keydown', onKey);

  const rotate = h('button', { type: 'button', id: 'rotate', title: 'Turn the board a quarter' }, 'Rotate board');
  const order = ['north', 'east', 'south', 'west'];
  rotate.addEventListener('click', () => {
    manualForward = order[(order.indexOf(board.forward) + 1) % 4];
    board.setForward(manualForward);
  });

  /** The answer to a move or an action shows the game as the acting
   *  seat's token sees it; a browser holding more seats (hot seat) asks
   *  again with all of them, so the next player's moves are there at once. */
  async function withAllSeats(view) {
    return Object.keys(api.heldSeats(id)).length > 1 ? api.getGame(id, api.heldTokens(id)) : view;
  }

  /** Shows a view of the game unless a newer one is shown already: the
   *  answer to a move can arrive after the refresh that the AI's reply
   *  set off, and must not take that reply back off the board. */
  function adopt(view) {
    if (view.version >= game.version) game = view;
    show();
  }

  async function send(move) {
    message.replaceChildren();
    const token = api.heldSeats(id)[game.to_move];
    try {
      adopt(await withAllSeats(await api.playMove(id, move.text, token, game.ply)));
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
    chooser.querySelector('button')?.focus();
  }

  // ----- Actions -----

  /** The seat this browser acts for: the player to move if held, else
   *  the first held player still in (or, to answer an offer, one that
   *  has not agreed yet). */
  function actingSeat(answering) {
    const mine = game.your_seats.filter((p) => !game.out.includes(p));
    if (answering && game.offer) return mine.find((p) => !game.offer.agreed.includes(p));
    return mine.includes(game.to_move) ? game.to_move : mine[0];
  }
  async function doAction(action, answering = false) {
    message.replaceChildren();
    const seat = actingSeat(answering);
    if (seat === undefined) return;
    try {
      adopt(await withAllSeats(await api.act(id, action, api.heldSeats(id)[seat], seat)));
    } catch (e) {
      message.replaceChildren(errorBox(e));
    }
  }
  /** Takes this browser's keys to the rematch (each seat moved one on). */
  function followRematch(newId) {
    const n = variant.players.length;
    for (const [s, t] of Object.entries(api.heldSeats(id))) api.holdSeat(newId, (+s + 1) % n, t);
    for (const [s, c] of Object.entries(api.invites(id))) api.keepInvite(newId, (+s + 1) % n, c);
    location.hash = `#/game/${newId}`;
  }
  async function doRematch() {
    message.replaceChildren();
    const seat = game.your_seats[0];
    try {
      const created = await api.rematch(id, api.heldSeats(id)[seat]);
      followRematch(created.id);
    } catch (e) {
      message.replaceChildren(errorBox(e));
    }
  }

  function showActions() {
    const mine = game.your_seats.filter((p) => !game.out.includes(p));
    const on = game.status === 'playing';
    const buttons = [];
    const offer = game.offer;
    if (on && mine.length) {
      const confirm = h('span', { class: 'confirm', hidden: true },
        'Resign? ',
        h('button', { type: 'button', id: 'resign-confirm', class: 'danger', onclick: () => doAction('resign') }, 'Yes, resign'), ' ',
        h('button', { type: 'button', onclick: () => { confirm.hidden = true; } }, 'No'));
      buttons.push(h('button', { type: 'button', id: 'resign', onclick: () => { confirm.hidden = false; } }, '⚐ Resign'), confirm);
      if (!offer) {
        buttons.push(h('button', { type: 'button', id: 'draw', title: two ? 'Offer a draw' : 'Offer a draw: every player left must agree', onclick: () => doAction('draw') }, '½ Offer draw'));
        if (game.moves.some((m) => mine.includes(m.player))) {
          buttons.push(h('button', { type: 'button', id: 'takeback', title: 'Ask to take back your last move', onclick: () => doAction('takeback') }, '↶ Takeback'));
        }
      }
    }
    if (!on && game.status === 'over' && game.your_seats.length) {
      buttons.push(game.rematch
        ? h('button', { type: 'button', id: 'rematch-link', onclick: () => followRematch(game.rematch) }, 'Go to the rematch')
        : h('button', { type: 'button', id: 'rematch', onclick: doRematch }, '⟳ Rematch (seats swapped)'));
    }
    actions.replaceChildren(...buttons);

    const words = (o) => (o.kind === 'draw' ? 'a draw' : 'to take back a move');
    const parts = [];
    if (offer) {
      const waiting = game.seats.map((s) => s.player)
        .filter((p) => !game.out.includes(p) && !offer.agreed.includes(p));
      const answer = mine.find((p) => !offer.agreed.includes(p));
      parts.push(h('p', {}, `${name(offer.by)} offers ${words(offer)}`,
        offer.agreed.length > 1 ? ` (agreed: ${offer.agreed.map(name).join(', ')})` : '',
        `. Waiting for ${waiting.map(name).join(', ')}.`));
      if (answer !== undefined) {
        parts.push(h('p', {},
          h('button', { type: 'button', id: 'accept', class: 'accept', onclick: () => doAction(offer.kind, true) }, `Accept (${name(answer)})`), ' ',
          h('button', { type: 'button', id: 'decline', onclick: () => doAction('decline', true) }, 'Decline')));
      }
    } else if (game.declined) {
      parts.push(h('p', { class: 'muted' }, `${name(game.declined.by)} declined ${words(game.declined)}.`));
    }
    offerBox.replaceChildren(...parts);
    offerBox.hidden = !parts.length;
  }

  // ----- Clocks -----

  let received = performance.now();
  function clockLeft(p) {
    const c = game.clock;
    if (!c) return null;
    const running = c.running === p && game.status === 'playing';
    return c.left_ms[p] - (running ? performance.now() - received : 0);
  }
  function tickClocks() {
    if (!game.clock) return;
    let flagged = false;
    for (const elc of players.querySelectorAll('.clock')) {
      const p = +elc.dataset.player;
      const left = clockLeft(p);
      elc.textContent = clockText(left);
      elc.classList.toggle('low', left < 10000);
      elc.classList.toggle('running', game.clock.running === p && game.status === 'playing');
      if (left <= 0 && game.clock.running === p && game.status === 'playing') flagged = true;
    }
    // The server ends the game when a flag falls; ask it soon after.
    if (flagged && !tickClocks.asked) { tickClocks.asked = true; setTimeout(() => { tickClocks.asked = false; refresh(); }, 300); }
  }
  const ticker = setInterval(tickClocks, 100);

  // ----- Showing the game -----

  function showReview() {
    reviewBanner.hidden = shown === null;
    if (shown !== null) {
      const m = game.moves[shown - 1];
      reviewBanner.replaceChildren(
        shown === 0 ? 'Reviewing the start position. ' : `Reviewing after move ${shown} (${name(m.player)}: ${m.san}). `,
        h('button', { type: 'button', id: 'back-to-live', onclick: () => showPly(game.ply) }, 'Back to the game'));
    }
    for (const li of moves.querySelectorAll('li[data-ply]')) {
      const cur = +li.dataset.ply === (shown ?? game.ply);
      li.classList.toggle('current', cur);
      if (cur) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    }
    const cur = moves.querySelector('li.current');
    if (cur) cur.scrollIntoView({ block: 'nearest' });
    else moves.scrollTop = moves.scrollHeight;
    for (const b of navBar.querySelectorAll('button')) b.disabled = false;
    navBar.querySelector('#first').disabled = (shown ?? game.ply) === 0;
    navBar.querySelector('#prev').disabled = (shown ?? game.ply) === 0;
    navBar.querySelector('#next').disabled = shown === null;
    navBar.querySelector('#last').disabled = shown === null;
  }

  let lastPly = game.ply;
  function show() {
    const mine = game.your_seats;
    const seat = mine.length === 1 ? mine[0]
      : mine.includes(game.to_move) ? game.to_move : mine[0];
    const forward = manualForward || (seat !== undefined ? variant.players[seat].forward : 'north');
    board.forward = forward;
    const moved = game.ply > lastPly;
    if (moved && game.last_move) sound(game.moves.length && /x/.test(game.moves[game.moves.length - 1].san));
    if (shown === null) board.update(game, { animate: game.ply === lastPly + 1 });
    lastPly = game.ply;
    if (shown !== null && shown > game.ply) shown = null;
    received = performance.now();

    const myOut = mine.filter((p) => game.out.includes(p));
    const o = game.outcome;
    const draw = o && o.ranking.length === 1;
    if (game.status === 'over') {
      status.textContent = draw
        ? `Game over: draw (${o.reason}).`
        : `Game over: ${o.ranking[0].map(name).join(' and ')} won (${o.reason}).`;
    } else if (game.status === 'stuck') {
      status.textContent = 'Nobody can move; the game stops here.';
    } else if (myOut.length && !mine.some((p) => !game.out.includes(p))) {
      status.textContent = `You are out: ${myOut.map(name).join(' and ')} ${myOut.length > 1 ? 'were' : 'was'} checkmated, resigned or dropped out (${ordinal(game.out.indexOf(myOut[0]))} out). The game goes on without you.`;
    } else {
      const who = name(game.to_move);
      status.textContent = mine.includes(game.to_move)
        ? `${who} to move — your move.${game.attacked_royals.length ? ' Check!' : ''}`
        : `${who} to move${game.ai_thinking ? ' (AI thinking…)' : ''}.`;
    }
    status.className = `status ${game.status === 'playing' && mine.includes(game.to_move) ? 'yours' : ''}${myOut.length && game.status === 'playing' ? ' out' : ''}`;
    overPanel.hidden = game.status !== 'over';
    if (game.status === 'over') {
      const won = (p) => o.ranking[0].includes(p);
      // One side's holder is told "you"; hot seat (both sides) is not.
      const side = mine.length && (mine.every(won) || !mine.some(won));
      const title = draw ? 'Draw'
        : side ? (mine.some(won) ? 'You won' : 'You lost')
          : `${o.ranking[0].map(name).join(' and ')} won`;
      const reasons = { resignation: 'by resignation', agreement: 'by agreement', time: 'on time' };
      overPanel.replaceChildren(
        h('h3', {}, title),
        h('p', {}, `Reason: ${reasons[o.reason] || o.reason}.`),
        draw ? h('p', {}, `Shared by ${o.ranking[0].map(name).join(', ')}.`)
          : h('ol', {}, o.ranking.map((group) => h('li', {}, group.map(name).join(' and ')
            + (group.length > 1 ? ' (shared)' : '') + (group.some((p) => mine.includes(p)) ? ' — you' : '')))));
    }
    showActions();

    const place = {};
    if (o) o.ranking.forEach((group, i) => group.forEach((p) => { place[p] = i; }));
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
      tags.length ? h('small', { class: 'tags' }, ` — ${tags.join(', ')}`) : '',
      game.clock ? h('span', { class: 'clock', 'data-player': s.player, role: 'timer', 'aria-label': `${p.name}'s clock` }) : '');
    }));
    tickClocks();

    // The move list: numbered pairs for two players, each move with its
    // player's colour for more.
    const start = two && game.moves.length && game.moves[0].player === 1 ? 1 : 0;
    const items = game.moves.map((m, i) => {
      const num = Math.floor((i + start) / 2) + 1;
      const label = two
        ? [(i + start) % 2 === 0 ? h('span', { class: 'num' }, `${num}.`) : '', m.san]
        : [h('span', { class: 'swatch small', style: `background:${colour(m.player)}` }), `${name(m.player)}: ${m.san}`];
      return h('li', {
        'data-ply': i + 1, tabindex: 0, role: 'button', title: `${m.text}${m.clock_ms != null ? ` (${clockText(m.clock_ms)} left)` : ''}`,
        'aria-label': `Move ${i + 1}, ${name(m.player)}: ${m.san}`,
        onclick: () => showPly(i + 1),
        onkeydown: (e) => { if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); showPly(i + 1); } },
      }, ...label);
    });
    if (start) items.unshift(h('li', { class: 'filler', 'aria-hidden': 'true' }, h('span', { class: 'num' }, '1.'), '…'));
    moves.replaceChildren(...items);
    showReview();

    const held = api.heldSeats(id);
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
  const toggle = (idText, label, setting, after) => {
    const box = h('input', { type: 'checkbox', id: idText, checked: api.setting(setting) });
    box.addEventListener('change', () => { api.setting(setting, box.checked); after?.(); });
    return h('label', {}, box, ` ${label}`);
  };
  const settings = h('p', { class: 'settings' },
    toggle('letters', 'Letters instead of pictures', 'letters', () => {
      setLetters(api.setting('letters'));
      board.render();
    }), ' ',
    toggle('sound', 'Move sounds', 'sound'));

  app.replaceChildren(h('div', { class: 'game' },
    h('div', { class: 'left' }, boardBox, reviewBanner, h('div', { class: 'controls' }, navBar, rotate,
      h('a', { href: '#/', class: 'button' }, 'Lobby'))),
    h('div', { class: 'right' },
      h('h2', {}, variant.title, h('small', { class: 'muted' }, ` game ${id}`)),
      status, overPanel, offerBox, actions, message,
      h('h3', {}, 'Players'), players,
      h('h3', {}, 'Moves'), moves,
      h('p', { class: 'exports' },
        two ? h('a', { href: api.pgnUrl(id), download: `quadrille-${id}.pgn`, class: 'button', id: 'export-pgn' }, 'Export PGN') : '', ' ',
        h('a', { href: api.recordUrl(id), download: `quadrille-${id}.txt`, class: 'button', id: 'export-record' }, 'Export record')),
      settings,
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
      const view = await api.getGame(id, api.heldTokens(id));
      // Reached the server again: an old "Failed to fetch" is stale.
      message.replaceChildren();
      adopt(view);
    } catch (e) {
      message.replaceChildren(errorBox(e));
    }
    busy = false;
    if (again) { again = false; refresh(); }
  }
  const stop = api.watch(id, () => refresh());
  setLeave(() => { stop(); clearInterval(ticker); document.removeEventListener('keydown', onKey); });
}
