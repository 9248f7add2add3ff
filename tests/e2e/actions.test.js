// Review, game actions and clocks in the browser: stepping through a
// 40-ply game by keys, a game against the AI to checkmate, resigning, a
// draw by agreement between two browsers, a takeback, a rematch, a flag
// falling, moves by keyboard alone, and the piece pictures.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, api, clickMove, shotsDir } from './helpers.js';

const ctx = serverAndBrowser();

/** Opens a game holding the seats of `tokens` (an array, null for none). */
async function open(id, tokens, viewport = { width: 1366, height: 768 }) {
  const context = await ctx.browser.newContext({ viewport });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const held = tokens.map((t) => t).filter(Boolean);
  await page.goto(`${ctx.server.url}/#/game/${id}${held.length ? `?t=${held.join(',')}` : ''}`);
  await page.locator('svg.board [data-piece]').first().waitFor();
  return { context, page, errors };
}

const text = (page, sel) => page.textContent(sel);
const statusMatches = (page, re) => page.waitForFunction(
  (src) => new RegExp(src).test(document.querySelector('#status')?.textContent ?? ''), re.source);

test('stepping back and forward through a 40-ply game by keys', async () => {
  // 40 plies without a repetition: every pawn two single steps, then the
  // knights and rooks out; made through the API.
  const created = await api(ctx.server.url, 'POST', '/api/games', { variant: 'chess' });
  const { id, tokens } = created.body;
  const white = [];
  const black = [];
  for (const f of 'abcdefgh') {
    white.push(`${f}2${f}3`, `${f}3${f}4`);
    black.push(`${f}7${f}6`, `${f}6${f}5`);
  }
  white.push('b1c3', 'g1f3', 'a1b1', 'h1g1');
  black.push('b8c6', 'g8f6', 'a8b8', 'h8g8');
  for (let i = 0; i < 20; i++) {
    for (const [mv, seat] of [[white[i], 0], [black[i], 1]]) {
      const r = await api(ctx.server.url, 'POST', `/api/games/${id}/moves`, { move: mv, token: tokens[seat] });
      assert.equal(r.status, 200, `${mv}: ${JSON.stringify(r.body)}`);
    }
  }
  const { body: positions } = await api(ctx.server.url, 'GET', `/api/games/${id}/positions`);
  assert.equal(positions.length, 41);
  const { page, context, errors } = await open(id, []);
  await page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 40);
  assert.match(await text(page, '#moves li[data-ply="33"]'), /17\.\s*Nc3/);
  const pieceAt = (cell) => page.locator(`svg.board [data-piece="${cell}"]`).count();
  const shownCells = () => page.evaluate(() => [...document.querySelectorAll('svg.board [data-piece]')]
    .map((p) => p.dataset.piece).sort());
  // Back one ply at a time: each position is the server's.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let ply = 39; ply >= 0; ply--) {
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction((n) => document.querySelector('#moves li.current')?.dataset.ply === String(n)
      || (n === 0 && !document.querySelector('#moves li.current') && !document.querySelector('#review').hidden), ply);
    // The board shows exactly the server's position after that ply.
    assert.deepEqual(await shownCells(), positions[ply].board.map((p) => p.cell).sort(), `ply ${ply}`);
  }
  assert.match(await text(page, '#review'), /start position/);
  assert.equal(await page.locator('svg.board .target').count(), 0);
  await page.screenshot({ path: `${shotsDir()}/review-start-1366x768.png` });
  // Forward again by keys, then End back to the live position.
  for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('#moves li.current')?.dataset.ply === '5');
  assert.equal(await pieceAt('b3'), 1);
  assert.equal(await pieceAt('b2'), 0);
  assert.match(await text(page, '#review'), /after move 5/);
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#review').hidden);
  assert.equal(await page.locator('#moves li.current').getAttribute('data-ply'), '40');
  // Clicking a move shows its position too; Home the start.
  await page.click('#moves li[data-ply="2"]');
  await page.waitForFunction(() => document.querySelector('#moves li.current')?.dataset.ply === '2');
  assert.equal(await pieceAt('a6'), 1);
  assert.equal(await pieceAt('a3'), 1);
  await page.keyboard.press('Home');
  await page.waitForFunction(() => /start position/.test(document.querySelector('#review').textContent));
  assert.deepEqual(errors, []);
  await context.close();
});

test('a game against the AI ends in checkmate with the game-over panel', async () => {
  // The person (White) has a back rank the AI's Rook can reach.
  const context = await ctx.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await page.goto(ctx.server.url + '/');
  await page.selectOption('#variant', 'chess');
  await page.locator('.seats[data-variant="chess"] .seat').first().waitFor();
  await page.selectOption('.seat-kind[data-seat="1"]', 'ai');
  await page.fill('#start', '4r1k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1');
  await page.click('#create');
  await page.waitForURL(/#\/game\/[a-z0-9]+$/);
  await page.locator('svg.board [data-piece="a2"]').waitFor();
  await clickMove(page, 'a2', 'a3');
  await page.locator('#over:not([hidden])').waitFor({ timeout: 20000 });
  assert.match(await text(page, '#over'), /You lost/);
  assert.match(await text(page, '#over'), /checkmate/);
  assert.match(await text(page, '#moves'), /Re1#/);
  // A rematch swaps the seats: the person now plays Black.
  await page.click('#rematch');
  await page.waitForFunction(() => /Black/.test(document.querySelector('#players li:not([data-player="0"])')?.textContent ?? '')
    && /you/.test(document.querySelector('#players li[data-player="1"]')?.textContent ?? ''));
  await page.waitForFunction(() => /your move/.test(document.querySelector('#status')?.textContent ?? ''), null, { timeout: 20000 });
  assert.match(await text(page, '#players li[data-player="0"]'), /AI level/);
  await page.screenshot({ path: `${shotsDir()}/rematch-1366x768.png` });
  await context.close();
});

test('resigning against the AI ends the game', async () => {
  const created = await api(ctx.server.url, 'POST', '/api/games', {
    variant: 'magna-carta', seats: [{ kind: 'human' }, { kind: 'ai', level: 1, time_ms: 200 }],
  });
  const { page, context } = await open(created.body.id, created.body.tokens);
  await page.click('#resign');
  await page.click('#resign-confirm');
  await page.locator('#over:not([hidden])').waitFor();
  assert.match(await text(page, '#over'), /You lost/);
  assert.match(await text(page, '#over'), /by resignation/);
  assert.match(await text(page, '#status'), /Black won \(resignation\)/);
  await context.close();
});

test('a draw by agreement between two browsers, and a takeback by consent', async () => {
  const created = await api(ctx.server.url, 'POST', '/api/games', { variant: 'chess' });
  const { id, tokens } = created.body;
  const white = await open(id, [tokens[0]]);
  const black = await open(id, [tokens[1]]);
  await clickMove(white.page, 'e2', 'e4');
  await black.page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 1);
  // Takeback: White asks, Black agrees, the move is gone for both.
  await white.page.click('#takeback');
  await black.page.locator('#accept').waitFor();
  assert.match(await text(black.page, '#offer'), /White offers to take back a move/);
  await black.page.click('#accept');
  await white.page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 0);
  await statusMatches(white.page, /your move/);
  // Draw: White offers, Black declines, White offers again, Black accepts.
  await white.page.click('#draw');
  await black.page.locator('#decline').waitFor();
  await black.page.click('#decline');
  await white.page.waitForFunction(() => /Black declined a draw/.test(document.querySelector('#offer')?.textContent ?? ''));
  await white.page.click('#draw');
  await black.page.locator('#accept').waitFor();
  await black.page.click('#accept');
  for (const p of [white.page, black.page]) {
    await p.locator('#over:not([hidden])').waitFor();
    assert.match(await text(p, '#over'), /Draw/);
    assert.match(await text(p, '#over'), /by agreement/);
  }
  await black.page.screenshot({ path: `${shotsDir()}/draw-agreed-1366x768.png` });
  await white.context.close();
  await black.context.close();
});

test('a clock running out ends the game', async () => {
  const created = await api(ctx.server.url, 'POST', '/api/games', {
    variant: 'chess', clock: { kind: 'fischer', base_ms: 10000, inc_ms: 0 },
  });
  const { id, tokens } = created.body;
  const { page, context } = await open(id, [tokens[0]]);
  assert.equal(await text(page, '.clock[data-player="0"]'), '0:10');
  await clickMove(page, 'e2', 'e4');
  const r = await api(ctx.server.url, 'POST', `/api/games/${id}/moves`, { move: 'e7e5', token: tokens[1] });
  assert.equal(r.status, 200);
  // White's clock runs now, down to zero, and the flag falls.
  await page.waitForFunction(() => document.querySelector('.clock[data-player="0"]')?.classList.contains('running'));
  await page.waitForFunction(() => /^0:0[0-8]/.test(document.querySelector('.clock[data-player="0"]')?.textContent ?? ''));
  await page.screenshot({ path: `${shotsDir()}/clock-running-1366x768.png` });
  await page.locator('#over:not([hidden])').waitFor({ timeout: 20000 });
  assert.match(await text(page, '#over'), /You lost/);
  assert.match(await text(page, '#over'), /on time/);
  assert.equal(await text(page, '.clock[data-player="0"]'), '0:00.0');
  await context.close();
});

test('a four-player resignation: the player is told they are out, the others play on', async () => {
  const created = await api(ctx.server.url, 'POST', '/api/games', { variant: 'ariana' });
  const { id, tokens } = created.body;
  const { page, context } = await open(id, [tokens[0]]);
  await page.click('#resign');
  await page.click('#resign-confirm');
  await statusMatches(page, /You are out/);
  const g = await api(ctx.server.url, 'GET', `/api/games/${id}`);
  assert.equal(g.body.status, 'playing');
  assert.deepEqual(g.body.out, [0]);
  assert.equal(await page.locator('#resign').count(), 0);
  await context.close();
});

test('a move by keyboard alone, and the position in words', async () => {
  const created = await api(ctx.server.url, 'POST', '/api/games', { variant: 'chess' });
  const { id, tokens } = created.body;
  const { page, context } = await open(id, [tokens[0]]);
  // Tab to the board's one focusable cell, walk to e2, pick, walk to e4, drop.
  await page.locator('svg.board [data-cell][tabindex="0"]').focus();
  const focused = () => page.evaluate(() => document.activeElement?.dataset.cell);
  const walk = async (to) => {
    for (let i = 0; i < 20 && (await focused()) !== to; i++) {
      const [f, r] = [(await focused()).charCodeAt(0), +(await focused()).slice(1)];
      await page.keyboard.press(f < to.charCodeAt(0) ? 'ArrowRight' : f > to.charCodeAt(0) ? 'ArrowLeft'
        : r < +to.slice(1) ? 'ArrowUp' : 'ArrowDown');
    }
    assert.equal(await focused(), to);
  };
  await walk('e2');
  assert.equal(await page.getAttribute('svg.board [data-cell="e2"]', 'aria-label'), 'e2 White Pawn');
  await page.keyboard.press('Enter');
  await page.locator('svg.board [data-target="e4"]').waitFor();
  await walk('e4');
  await page.keyboard.press(' ');
  await page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 1);
  assert.match(await text(page, '#position-text'), /White: .*Pawn e4/);
  await context.close();
});

test('every piece type of every variant has its own picture', async () => {
  const { body: variants } = await api(ctx.server.url, 'GET', '/api/variants');
  const context = await ctx.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  for (const v of variants) {
    const { body: created } = await api(ctx.server.url, 'POST', '/api/games', { variant: v.name });
    await page.goto(`${ctx.server.url}/#/game/${created.id}`);
    await page.locator('#legend tr').first().waitFor();
    // In the legend, every type is a picture (no letter disc), and no two
    // types of one variant look the same.
    const pictures = await page.evaluate(() => [...document.querySelectorAll('#legend tr')].map((tr) => {
      const art = tr.querySelector('.art');
      return art ? art.innerHTML : null;
    }));
    assert.ok(pictures.every((p) => p !== null), `${v.name}: a piece without a picture`);
    assert.equal(new Set(pictures).size, pictures.length, `${v.name}: two pieces look the same`);
  }
  // The letters setting draws letters instead.
  await page.check('#letters');
  await page.waitForFunction(() => document.querySelector('svg.board .letter') !== null);
  await page.uncheck('#letters');
  await context.close();
});
