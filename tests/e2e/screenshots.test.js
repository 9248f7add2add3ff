// A screenshot of the start position of every offered variant, as a
// spectator sees it, saved to target/screenshots/ (copies are kept in
// docs/screenshots/). Each is checked for its number of cells and pieces.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startServer, launch, api, shotsDir, clickCell } from './helpers.js';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('every variant\'s start position is drawn and saved', async () => {
  const dir = shotsDir();
  const { body: variants } = await api(server.url, 'GET', '/api/variants');
  assert.ok(variants.length >= 10);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
  const page = await context.newPage();
  for (const v of variants) {
    const { body: described } = await api(server.url, 'GET', `/api/variants/${v.name}`);
    const { body: created } = await api(server.url, 'POST', '/api/games', { variant: v.name });
    await page.goto(`${server.url}/#/game/${created.id}`);
    await page.locator('svg.board [data-piece]').first().waitFor();
    assert.equal(await page.locator('svg.board [data-cell]').count(), described.board.cells.length, v.name);
    assert.equal(await page.locator('svg.board [data-piece]').count(), created.game.board.length, v.name);
    assert.equal(await page.locator('#legend tr').count(), described.pieces.length, v.name);
    await page.locator('.board-box').screenshot({ path: join(dir, `${v.name}.png`) });
  }
  // One whole page in play, seen by the player to move, with a piece selected.
  const { body: game } = await api(server.url, 'POST', '/api/games', { variant: 'caissa-britannia' });
  await page.goto(`${server.url}/#/game/${game.id}?t=${game.tokens[0]}`);
  await page.locator('svg.board [data-piece="d3"]').waitFor();
  await clickCell(page, 'd3');
  await page.locator('svg.board .target').first().waitFor();
  await page.screenshot({ path: join(dir, 'page-caissa-britannia.png'), fullPage: true });
  await context.close();
});
