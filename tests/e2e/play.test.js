// Playing in the browser: two- and four-player games by clicking and
// dragging, reloading, a second browser without the seat's token, two
// browsers online with live updates, promotion, and an AI seat.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverAndBrowser, api, cellBox, clickCell, clickMove, shotsDir } from './helpers.js';

const ctx = serverAndBrowser();

/** Starts a game from the lobby (every seat human unless `seatKinds`
 *  says otherwise; hot seat unless `hotSeat` is false); returns its id. */
async function createFromLobby(page, variant, seatKinds = null, hotSeat = true) {
  await page.goto(ctx.server.url + '/');
  await page.selectOption('#variant', variant);
  await page.locator(`.seats[data-variant="${variant}"] .seat`).first().waitFor();
  if (hotSeat) await page.check('#hot-seat');
  if (seatKinds) {
    for (const [i, kind] of seatKinds.entries()) {
      await page.selectOption(`.seat-kind[data-seat="${i}"]`, kind);
    }
  }
  await page.click('#create');
  await page.waitForURL(/#\/game\/[a-z0-9]+$/);
  await page.locator('svg.board [data-cell]').first().waitFor();
  return page.url().match(/#\/game\/([a-z0-9]+)/)[1];
}

async function pieceOn(page, cell) {
  return page.locator(`svg.board [data-piece="${cell}"]`).count();
}

test('a two-player game by clicks and a drag survives a reload; a second browser cannot move', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1300, height: 950 } });
  const page = await context.newPage();
  const id = await createFromLobby(page, 'chess');
  assert.match(await page.textContent('#status'), /White to move — your move/);
  await clickMove(page, 'e2', 'e4');
  assert.equal(await pieceOn(page, 'e4'), 1);
  assert.equal(await pieceOn(page, 'e2'), 0);
  // Hot-seat: the same browser holds Black's seat too.
  await clickMove(page, 'e7', 'e5');
  // A drag: g1 to f3.
  const from = await cellBox(page, 'g1');
  const to = await cellBox(page, 'f3');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + 10, from.y + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 3);
  assert.equal(await pieceOn(page, 'f3'), 1);
  assert.match(await page.textContent('#moves'), /2\.\s*Nf3/);
  assert.equal(await page.getAttribute('#moves li[data-ply="3"]', 'title'), 'g1f3');

  // Reload: the same game, the same position, still our seats.
  await page.reload();
  await page.locator('svg.board [data-piece="f3"]').waitFor();
  assert.equal(await page.locator('#moves li[data-ply]').count(), 3);
  assert.equal(await pieceOn(page, 'e4'), 1);
  assert.equal(await pieceOn(page, 'e5'), 1);
  assert.match(await page.textContent('#status'), /Black to move — your move/);
  // The last move is marked.
  assert.equal(await page.locator('svg.board .last-move').count(), 2);

  // A second browser (no localStorage, no token) sees the game but cannot move.
  const other = await ctx.browser.newContext();
  const spy = await other.newPage();
  await spy.goto(`${ctx.server.url}/#/game/${id}`);
  await spy.locator('svg.board [data-piece="f3"]').waitFor();
  assert.match(await spy.textContent('#status'), /^Black to move\.$/);
  await clickCell(spy, 'b8');
  assert.equal(await spy.locator('svg.board .target').count(), 0, 'no targets offered');
  await clickCell(spy, 'c6');
  const forged = await spy.evaluate(async (gid) => {
    const r = await fetch(`/api/games/${gid}/moves`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ move: 'b8c6', token: 'f'.repeat(32) }),
    });
    return { status: r.status, body: await r.json() };
  }, id);
  assert.equal(forged.status, 403);
  assert.equal(forged.body.error.code, 'bad_token');
  const state = await api(ctx.server.url, 'GET', `/api/games/${id}`);
  assert.equal(state.body.ply, 3, 'the second browser changed nothing');
  await other.close();
  await context.close();
});

test('a four-player game by clicks survives a reload', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1300, height: 1000 } });
  const page = await context.newPage();
  const id = await createFromLobby(page, 'ariana');
  assert.equal(await page.locator('svg.board [data-cell]').count(), 45);
  // Red, Orange, Green and Blue each push the middle pawn of their camp.
  await clickMove(page, 'e3', 'e4');
  await clickMove(page, 'g5', 'f5');
  await clickMove(page, 'e7', 'e6');
  await clickMove(page, 'c5', 'd5');
  await page.reload();
  await page.locator('svg.board [data-piece="d5"]').waitFor();
  assert.equal(await page.locator('#moves li[data-ply]').count(), 4);
  for (const cell of ['e4', 'f5', 'e6', 'd5']) assert.equal(await pieceOn(page, cell), 1, cell);
  assert.match(await page.textContent('#status'), /Red to move/);
  const state = await api(ctx.server.url, 'GET', `/api/games/${id}`);
  assert.deepEqual(state.body.moves.map((m) => m.text), ['e3e4', 'g5f5', 'e7e6', 'c5d5']);
  await context.close();
});

test('two browsers play online and see each other\'s moves live', async () => {
  const created = await api(ctx.server.url, 'POST', '/api/games', { variant: 'avon' });
  assert.equal(created.status, 201);
  const { id, tokens } = created.body;
  const pages = [];
  for (const t of tokens) {
    const context = await ctx.browser.newContext({ viewport: { width: 1200, height: 900 } });
    const p = await context.newPage();
    await p.goto(`${ctx.server.url}/#/game/${id}?t=${t}`);
    await p.locator('svg.board [data-cell]').first().waitFor();
    pages.push(p);
  }
  // Each browser holds one seat: only the player to move gets targets.
  assert.match(await pages[0].textContent('#status'), /White 0-4 to move — your move/);
  assert.match(await pages[1].textContent('#status'), /^White 0-4 to move\.$/);
  await clickMove(pages[0], 'e2', 'e3');
  // The others see it without reloading.
  for (const p of pages.slice(1)) {
    await p.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 1);
  }
  await pages[1].waitForFunction(() => /your move/.test((document.querySelector('#status')?.textContent ?? '')));
  await clickMove(pages[1], 'e7', 'e6');
  await pages[0].waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 2);
  assert.equal(await pages[0].locator('svg.board [data-piece="e6"]').count(), 1);
  for (const p of pages) await p.context().close();
});

test('a promotion asks which piece', async () => {
  const created = await api(ctx.server.url, 'POST', '/api/games',
    { variant: 'chess', start: 'k7/4P3/8/8/8/8/8/4K3 w - - 0 1' });
  const { id, tokens } = created.body;
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  await page.goto(`${ctx.server.url}/#/game/${id}?t=${tokens[0]}`);
  await page.locator('svg.board [data-piece="e7"]').waitFor();
  await clickCell(page, 'e7');
  await clickCell(page, 'e8');
  await page.locator('#chooser .promo').first().waitFor();
  assert.equal(await page.locator('#chooser .promo').count(), 4);
  await page.click('#chooser [data-promotion="n"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 1);
  const state = await api(ctx.server.url, 'GET', `/api/games/${id}`);
  assert.equal(state.body.moves[0].text, 'e7e8n');
  await context.close();
});

test('an AI seat answers a move made in the browser', async () => {
  const context = await ctx.browser.newContext();
  const page = await context.newPage();
  const id = await createFromLobby(page, 'magna-carta', ['human', 'ai']);
  await clickMove(page, 'd2', 'd4');
  await page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 2, null, { timeout: 15000 });
  assert.match(await page.textContent('#players'), /AI level 5/);
  const state = await api(ctx.server.url, 'GET', `/api/games/${id}`);
  assert.equal(state.body.moves[1].player, 1);
  await context.close();
});

/** The seat index of a player tag in a variant. */
async function seatOf(variant, tag) {
  const v = await api(ctx.server.url, 'GET', `/api/variants/${variant}`);
  return v.body.players.findIndex((p) => p.tag === tag);
}

test('an optional promotion offers the plain move and each piece', async () => {
  const start = '1gK1/3/3/4rP4/bK7oK/9/3/3/1rK1 r - - 0 1';
  const red = await seatOf('ariana', 'r');
  for (const [choice, expected] of [['', 'e6e7'], ['q', 'e6e7q']]) {
    const created = await api(ctx.server.url, 'POST', '/api/games', { variant: 'ariana', start });
    const { id, tokens } = created.body;
    const context = await ctx.browser.newContext();
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${ctx.server.url}/#/game/${id}?t=${tokens[red]}`);
    await page.locator('svg.board [data-piece="e6"]').waitFor();
    await clickCell(page, 'e6');
    await clickCell(page, 'e7');
    await page.locator('#chooser .promo').first().waitFor();
    assert.equal(await page.locator('#chooser .promo').count(), 4, 'push, Queen, Rook, Bishop');
    assert.match(await page.textContent('#chooser'), /No promotion/);
    await page.click(`#chooser [data-promotion="${choice}"]`);
    await page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 1);
    const state = await api(ctx.server.url, 'GET', `/api/games/${id}`);
    assert.equal(state.body.moves[0].text, expected);
    assert.deepEqual(errors, []);
    await context.close();
  }
});

test('a human checkmated in a four-player game is told so', async () => {
  // Orange plays i5i6: Red is checkmated (Green's Rook sees e6), then Blue.
  const start = '1gRgK/3/3/4rK4/8oK/4bK4/3/3/3 o - - 0 1';
  const created = await api(ctx.server.url, 'POST', '/api/games', { variant: 'ariana', start });
  const { id, tokens } = created.body;
  const red = await seatOf('ariana', 'r');
  const orange = await seatOf('ariana', 'o');
  const context = await ctx.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await page.goto(`${ctx.server.url}/#/game/${id}?t=${tokens[red]}`);
  await page.locator('svg.board [data-piece="e6"]').waitFor();
  const moved = await api(ctx.server.url, 'POST', `/api/games/${id}/moves`, { move: 'i5i6', token: tokens[orange] });
  assert.equal(moved.status, 200);
  await page.waitForFunction(() => /You are out/.test((document.querySelector('#status')?.textContent ?? '')));
  assert.match(await page.textContent('#status'), /Red was checkmated/);
  await page.screenshot({ path: `${shotsDir()}/ariana-red-checkmated-1366x768.png` });
  await context.close();
});

test('a finished game shows the game-over panel with the result', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await createFromLobby(page, 'chess');
  for (const [from, to] of [['f2', 'f3'], ['e7', 'e5'], ['g2', 'g4'], ['d8', 'h4']]) {
    await clickMove(page, from, to);
  }
  await page.locator('#over:not([hidden])').waitFor();
  const panel = await page.textContent('#over');
  assert.match(panel, /checkmate/);
  assert.match(panel, /Black/);
  assert.match(await page.textContent('#status'), /Game over: Black won/);
  await page.screenshot({ path: `${shotsDir()}/chess-game-over-1366x768.png` });
  await context.close();
});

test('the creator invites the other player, who alone can move that seat', async () => {
  const creator = await ctx.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await creator.newPage();
  const id = await createFromLobby(page, 'chess', null, false);
  assert.match(await page.textContent('#players'), /Black — invited, not joined yet/);
  const link = await page.inputValue('.invitation[data-seat="1"]');
  assert.match(link, new RegExp(`#/join/${id}/[0-9a-f]+$`));
  // The creator holds White only: no seat link carries Black's token.
  assert.equal(await page.locator('.invite[data-seat="1"]').count(), 0);
  await clickMove(page, 'e2', 'e4');
  assert.match(await page.textContent('#status'), /^Black to move\.$/);
  await clickCell(page, 'e7');
  assert.equal(await page.locator('svg.board .target').count(), 0, 'no targets for the invited seat');

  // The invited browser takes the seat and moves it.
  const guest = await ctx.browser.newContext({ viewport: { width: 390, height: 844 } });
  const other = await guest.newPage();
  await other.goto(link);
  await other.waitForURL(new RegExp(`#/game/${id}$`));
  await other.waitForFunction(() => /Black to move — your move/.test((document.querySelector('#status')?.textContent ?? '')));
  await clickMove(other, 'e7', 'e5');
  await page.waitForFunction(() => document.querySelectorAll('#moves li[data-ply]').length === 2);
  await page.waitForFunction(() => !/invited/.test((document.querySelector('#players')?.textContent ?? '')));
  await other.screenshot({ path: `${shotsDir()}/chess-invited-black-390x844.png` });

  // The link is used up: the creator cannot take Black with it.
  const again = await page.evaluate(async ([gid, code]) => {
    const r = await fetch(`/api/games/${gid}/join`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ invite: code }),
    });
    return r.status;
  }, [id, link.split('/').pop()]);
  assert.equal(again, 403);
  await creator.close();
  await guest.close();
});

test('quick start: one click to a four-player game with three AIs', async () => {
  const context = await ctx.browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await context.newPage();
  await page.goto(ctx.server.url + '/');
  await page.click('#quick-four');
  await page.waitForURL(/#\/game\/[a-z0-9]+$/);
  await page.locator('svg.board [data-piece]').first().waitFor();
  const players = await page.textContent('#players');
  assert.equal((players.match(/AI level 5/g) || []).length, 3, players);
  assert.match(players, /Red — you/);
  await context.close();
});
