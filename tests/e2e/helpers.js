// Shared by the end-to-end tests: a Quadrille server on a free port with a
// fresh database, and headless Chromium (Debian's /usr/bin/chromium).

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN = process.env.QUADRILLE_BIN || join(ROOT, 'target', 'release', 'quadrille');
export const SHOTS = join(ROOT, 'target', 'screenshots');

/**
 * Starts `quadrille serve` on a free port; resolves to {url, stop, db}.
 * The screenshot tests create a game per variant and window size (more
 * than the default burst of 60 from one client, faster than one every two
 * seconds), so the burst is raised; the limit itself is tested in
 * crates/server/tests.
 */
export async function startServer(db = join(mkdtempSync(join(tmpdir(), 'quadrille-e2e-')), 'games.db')) {
  const args = ['serve', '--port', '0', '--db', db, '--create-burst', '1000'];
  const child = spawn(BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 15000);
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/open (http:\/\/127\.0\.0\.1:\d+)\//);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${stderr}`)); });
  });
  const stop = () => new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGINT');
  });
  return { url, stop, db, stderr: () => stderr };
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** JSON API call from the test itself. */
export async function api(url, method, path, body, tokens) {
  const headers = { 'content-type': 'application/json' };
  if (tokens) headers['x-seat-tokens'] = tokens.join(',');
  const r = await fetch(url + path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  return { status: r.status, body: await r.json() };
}

export function shotsDir() {
  mkdirSync(SHOTS, { recursive: true });
  return SHOTS;
}

/** Clicks a cell of the board by name (works whatever the rotation). */
export async function clickCell(page, cell) {
  await page.locator(`svg.board [data-cell="${cell}"]`).click();
}

/** The box of a cell on screen. The board is drawn again whenever a view
 *  of the game arrives (a move's answer, then the live update it sets
 *  off), which can detach the cell between finding and measuring it;
 *  Playwright then answers null, so ask again. */
export async function cellBox(page, cell) {
  for (let tries = 0; tries < 50; tries++) {
    const box = await page.locator(`svg.board [data-cell="${cell}"]`).boundingBox();
    if (box) return box;
    await page.waitForTimeout(20);
  }
  throw new Error(`cell ${cell} has no box on screen`);
}

/** Plays a move by two clicks and waits until the move list grows. */
export async function clickMove(page, from, to) {
  const before = await page.locator('#moves li[data-ply]').count();
  await clickCell(page, from);
  await page.locator(`svg.board [data-target="${to}"]`).waitFor();
  await clickCell(page, to);
  await page.waitForFunction((n) => document.querySelectorAll('#moves li[data-ply]').length > n, before);
}

/** Registers hooks that start a server and a browser before the tests of
 *  a file and stop them after; the returned object holds both. */
export function serverAndBrowser() {
  const ctx = {};
  before(async () => {
    ctx.server = await startServer();
    ctx.browser = await launch();
  });
  after(async () => {
    await ctx.browser?.close();
    await ctx.server?.stop();
  });
  return ctx;
}
