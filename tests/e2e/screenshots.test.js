// A screenshot of the start position of every offered variant, as a
// spectator sees it, saved to target/screenshots/ (copies are kept in
// docs/screenshots/). Each is checked for its number of cells and pieces.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { serverAndBrowser, api, shotsDir, clickCell } from './helpers.js';

const ctx = serverAndBrowser();

test('every variant\'s start position is drawn and saved', async () => {
  const dir = shotsDir();
  const { body: variants } = await api(ctx.server.url, 'GET', '/api/variants');
  assert.ok(variants.length >= 10);
  const context = await ctx.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  for (const v of variants) {
    const { body: described } = await api(ctx.server.url, 'GET', `/api/variants/${v.name}`);
    const { body: created } = await api(ctx.server.url, 'POST', '/api/games', { variant: v.name });
    await page.goto(`${ctx.server.url}/#/game/${created.id}`);
    await page.locator('svg.board [data-piece]').first().waitFor();
    assert.equal(await page.locator('svg.board [data-cell]').count(), described.board.cells.length, v.name);
    assert.equal(await page.locator('svg.board [data-piece]').count(), created.game.board.length, v.name);
    assert.equal(await page.locator('#legend tr').count(), described.pieces.length, v.name);
    await page.locator('.board-box').screenshot({ path: join(dir, `${v.name}.png`) });
  }
  // One whole page in play, seen by the player to move, with a piece selected.
  const { body: game } = await api(ctx.server.url, 'POST', '/api/games', { variant: 'caissa-britannia' });
  await page.goto(`${ctx.server.url}/#/game/${game.id}?t=${game.tokens[0]}`);
  await page.locator('svg.board [data-piece="d3"]').waitFor();
  await clickCell(page, 'd3');
  await page.locator('svg.board .target').first().waitFor();
  await page.screenshot({ path: join(dir, 'page-caissa-britannia.png'), fullPage: true });

  // A four-player game as Blue sees it: the board turned so that Blue's
  // forward (east) points up, Blue's camp at the bottom, Green's (north)
  // on the left.
  const { body: four } = await api(ctx.server.url, 'POST', '/api/games', { variant: 'ariana' });
  for (const [seat, mv] of [[0, 'e3e4'], [1, 'g5f5'], [2, 'e7e6']]) {
    const r = await api(ctx.server.url, 'POST', `/api/games/${four.id}/moves`, { move: mv, token: four.tokens[seat] });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  await page.goto(`${ctx.server.url}/#/game/${four.id}?t=${four.tokens[3]}`);
  await page.locator('svg.board [data-piece="e6"]').waitFor();
  // Measured in one go: live updates may redraw the board at any time.
  const [blueKing, greenKing] = await page.evaluate(() => ['a5', 'e9'].map((c) => {
    const r = document.querySelector(`svg.board [data-cell="${c}"]`).getBoundingClientRect();
    return { x: r.x, y: r.y };
  }));
  assert.ok(blueKing.y > greenKing.y + 200, 'Blue\'s camp is at the bottom');
  // Facing east, north is on Blue's left.
  assert.ok(greenKing.x < blueKing.x - 200, `Green's camp is on Blue's left: ${JSON.stringify([blueKing, greenKing])}`);
  await page.screenshot({ path: join(dir, 'page-ariana-blue.png'), fullPage: true });
  // The lobby, with the games above listed and AI chosen for one seat.
  await page.goto(`${ctx.server.url}/#/`);
  await page.locator('.seats[data-variant="chess"] .seat').first().waitFor();
  await page.selectOption('.seat-kind[data-seat="1"]', 'ai');
  await page.locator('table.games tr').nth(1).waitFor();
  await page.screenshot({ path: join(dir, 'page-lobby.png'), fullPage: true });
  await context.close();
});

test('every variant fits the window, board and controls, on desktop and phone', async () => {
  const dir = join(shotsDir(), 'viewports');
  mkdirSync(dir, { recursive: true });
  const { body: variants } = await api(ctx.server.url, 'GET', '/api/variants');
  for (const [width, height] of [[1920, 1080], [1366, 768], [390, 844]]) {
    const context = await ctx.browser.newContext({ viewport: { width, height }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    for (const v of variants) {
      const { body: created } = await api(ctx.server.url, 'POST', '/api/games', { variant: v.name });
      await page.goto(`${ctx.server.url}/#/game/${created.id}?t=${created.tokens[0]}`);
      await page.locator('svg.board [data-piece]').first().waitFor();
      const board = await page.locator('.board-box').boundingBox();
      const controls = await page.locator('.controls').boundingBox();
      const where = `${v.name} at ${width}x${height}`;
      assert.ok(board.x >= 0 && board.x + board.width <= width + 1, `${where}: board ${JSON.stringify(board)}`);
      assert.ok(board.y + board.height <= height + 1, `${where}: board bottom ${board.y + board.height}`);
      assert.ok(controls.y + controls.height <= height + 1, `${where}: controls bottom ${controls.y + controls.height}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `${where}: the page scrolls sideways by ${overflow}px`);
      await page.screenshot({ path: join(dir, `${v.name}-${width}x${height}.png`) });
    }
    // The lobby too, on every size.
    await page.goto(`${ctx.server.url}/`);
    await page.locator('#create').waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `lobby at ${width}x${height} scrolls sideways by ${overflow}px`);
    await page.screenshot({ path: join(dir, `lobby-${width}x${height}.png`), fullPage: true });
    await context.close();
  }
});
