/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createAccount } from '../../src/app/accounts.js';
import { createApiKey } from '../../src/app/api-keys.js';
import { addDeposit } from '../../src/app/deposits.js';
import { launchChromium } from '../support/browser.js';
import { databaseEnv } from '../support/cli.js';
import { FAST_SIMULATOR, processDeps } from '../support/harness.js';
import { freePort, startProcess, type ServiceProcess } from '../support/processes.js';
import { Receiver } from '../support/receiver.js';

// The dashboard, driven as a customer drives it: the built server as its own process (API, workers and
// the bundled dashboard), Debian's Chromium, and a real receiver for the webhook. Screenshots of every
// page at 1280 and 375 px go to TOPUP_SCREENSHOTS_DIR (`npm run screenshots`: docs/screenshots).

const chromiumPath = inject('chromium');
const WIDE = { width: 1280, height: 860 };
const NARROW = { width: 375, height: 780 };

describe.skipIf(!chromiumPath)('dashboard in headless Chromium', () => {
  const dir = mkdtempSync(join(tmpdir(), 'topup-dashboard-'));
  const shots = resolve(process.env.TOPUP_SCREENSHOTS_DIR ?? join(dir, 'screenshots'));
  const env = { ...FAST_SIMULATOR, ...databaseEnv({ kind: 'sqlite', path: join(dir, 'topup.db') }), TOPUP_ENV: 'staging', TOPUP_VAT_RATE: '0.19' };
  let server: ServiceProcess;
  let browser: Browser;
  let receiver: Receiver;
  let key = '';
  let url = '';
  /** What the page reported that must never happen: script errors and CSP violations. */
  const faults: string[] = [];

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    const service = await processDeps({ kind: 'sqlite', path: join(dir, 'topup.db') }, env);
    const account = await createAccount(service, { name: 'Acme Payroll SRL', currency: 'RON' });
    await addDeposit(service, { accountId: account.id, amount: '1000.00', reference: 'opening credit' });
    key = (await createApiKey(service, account.id, { name: 'dashboard' })).key;
    await service.close();
    receiver = await new Receiver().start();
    const port = await freePort();
    server = await startProcess(['serve'], env, port);
    url = server.url!;
    browser = await launchChromium(chromiumPath!);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.kill('SIGTERM');
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function newPage(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport, acceptDownloads: true });
    const page = await context.newPage();
    page.on('pageerror', (error) => faults.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (/content security policy/i.test(message.text())) faults.push(`CSP: ${message.text()}`);
    });
    page.on('dialog', (dialog) => void dialog.accept());
    return { context, page };
  }

  const shot = (page: Page, name: string, width: number) => page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });

  async function signIn(page: Page, withKey = key): Promise<void> {
    await page.goto(`${url}/dashboard`);
    await page.getByLabel('API key').fill(withKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('balance').waitFor();
  }

  /** The API itself, with the key: what the dashboard did, seen from outside it. */
  const api = async <T>(path: string): Promise<T> => (await (await fetch(`${url}${path}`, { headers: { 'x-authorization': key } })).json()) as T;
  type Listing = { pagination: { total: number } };

  it('signs in, shows the balance, places a top-up through Review and Confirm, lists it, exports it, adds a webhook, signs out', async () => {
    const { context, page } = await newPage(WIDE);

    // Sign in: a wrong key is explained; the right one opens the overview with the balance.
    await page.goto(`${url}/dashboard`);
    await shot(page, 'sign-in', WIDE.width);
    await page.getByLabel('API key').fill('tk_test_wrong');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not valid/);
    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toContain('1,000.00 RON');
    expect(await page.getByText('Credit remaining').isVisible()).toBe(true);
    expect(await page.locator('canvas').count()).toBe(1);
    await shot(page, 'overview', WIDE.width);
    // The session cookie is HttpOnly: the page's scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).toBe('');

    // New top-up: two numbers, fast; Review checks them and shows the quote; Confirm places once.
    await page.getByRole('link', { name: 'New top-up' }).click();
    await page.getByLabel('Phone number').fill('0744 123 456');
    await page.getByLabel('Amount (EUR)').fill('5');
    await page.getByRole('button', { name: 'Add another number' }).click();
    await page.getByLabel('Phone number').nth(1).fill('0722 000 111');
    await page.getByLabel('Amount (EUR)').nth(1).fill('10');
    await page.getByLabel('Fast recharge').check();
    await page.getByRole('button', { name: 'Review' }).click();
    const total = page.getByTestId('quote-total');
    await total.waitFor();
    const quoted = (await total.textContent())!;
    expect(await page.getByRole('cell', { name: 'orange' }).isVisible()).toBe(true);
    expect(await page.getByRole('cell', { name: 'vodafone' }).isVisible()).toBe(true);
    await shot(page, 'new-top-up', WIDE.width);
    // A double click sends one order: the button is disabled at once, and the key is the same anyway.
    await page.getByRole('button', { name: 'Confirm' }).dblclick();
    await page.getByText('2 recharge orders registered').waitFor();
    const placed = await api<Listing>('/v1/account/recharges');
    expect(placed.pagination.total).toBe(2);
    const balance = await api<{ balance: number }>('/v1/account/balance');
    expect(`${(1000 - balance.balance).toLocaleString('en-GB', { minimumFractionDigits: 2 })} RON`).toBe(quoted);

    // Orders: both listed; the phone filter narrows; the detail shows the pricing.
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await expect.poll(() => page.locator('table.orders tbody tr').count()).toBe(2);
    await expect.poll(async () => (await api<Listing>('/v1/account/recharges?status=SUCCESS')).pagination.total, { timeout: 15_000 }).toBe(2);
    await page.reload();
    await expect.poll(() => page.locator('table.orders').getByText('SUCCESS').count()).toBe(2);
    await shot(page, 'orders', WIDE.width);
    await page.getByLabel('Phone number').fill('0744123456');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect.poll(() => page.locator('table.orders tbody tr').count()).toBe(1);
    expect(page.url()).toContain('phone=0744123456');

    // Download CSV with the current filters.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split('\r\n');
    expect(csv[0]).toBe('recharge_uuid,number,network,amount,currency,recharge_status,fast_recharge,created_at,updated_at,failure_reason,document_id,deduction,deduction_currency');
    expect(csv).toHaveLength(2);
    expect(csv[1]).toContain(',40744123456,orange,5.00,EUR,SUCCESS,true,');

    await page.getByRole('link', { name: '40744123456' }).click();
    await page.getByRole('heading', { name: 'Pricing' }).waitFor();
    expect(await page.getByText('Deducted from your balance').isVisible()).toBe(true);
    await shot(page, 'order-detail', WIDE.width);

    // Webhooks: add one (its secret shown once), send a test event, see it delivered and signed.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Name').fill('main');
    await page.getByLabel('URL').fill(`${receiver.url}/hook`);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    const secret = await page.getByLabel('Signing secret of main').inputValue();
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send a test event to main' }).click();
    await expect.poll(() => receiver.on('/hook').length, { timeout: 15_000 }).toBe(1);
    const [delivery] = receiver.on('/hook');
    expect(new Webhook(secret).verify(delivery!.body, delivery!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('table.deliveries tbody tr').filter({ hasText: 'webhook.test' }).filter({ hasText: 'delivered' }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(await page.locator('table.deliveries').getByText('HTTP 200').count()).toBe(1);
    await shot(page, 'webhooks', WIDE.width);

    // API keys: a read key, shown once.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name (optional)').fill('reporting');
    await page.getByLabel('Scope').selectOption('read');
    await page.getByRole('button', { name: 'Create key' }).click();
    const readKey = await page.getByLabel('New API key').inputValue();
    expect(readKey).toMatch(/^tk_test_/);
    await expect.poll(() => page.getByRole('cell', { name: 'reporting' }).count()).toBe(1);
    await shot(page, 'api-keys', WIDE.width);

    // Sign out: back to the sign-in page, and the old cookie opens nothing.
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'topup_session', httpOnly: true, sameSite: 'Strict' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    const after = await fetch(`${url}/v1/account/balance`, { headers: { cookie: `topup_session=${cookie!.value}` } });
    expect(after.status).toBe(401);
    await page.goto(`${url}/dashboard/orders`);
    await page.getByLabel('API key').waitFor();

    // A read key signs in read-only: no New top-up, no forms, no Revoke.
    await signIn(page, readKey);
    expect(await page.getByRole('link', { name: 'New top-up' }).count()).toBe(0);
    expect(await page.getByText('read-only key').isVisible()).toBe(true);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Endpoints' }).waitFor();
    expect(await page.getByRole('button', { name: 'Add webhook' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Send a test event/ }).count()).toBe(0);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('cell', { name: 'reporting' }).waitFor();
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Revoke/ }).count()).toBe(0);

    await context.close();
    expect(faults).toEqual([]);
  }, 120_000);

  it('is usable at 375 px wide and with the keyboard alone', async () => {
    const { context, page } = await newPage(NARROW);
    await page.goto(`${url}/dashboard`);
    await shot(page, 'sign-in', NARROW.width);
    // Keyboard: the key field takes focus by Tab, Enter signs in.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('api-key');
    await page.keyboard.type(key);
    await page.keyboard.press('Enter');
    await page.getByTestId('balance').waitFor();
    const fits = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    await shot(page, 'overview', NARROW.width);

    for (const [link, name, ready] of [
      ['Orders', 'orders', 'table.orders tbody tr'],
      ['New top-up', 'new-top-up', '#phone-0'],
      ['Webhooks', 'webhooks', 'table.deliveries tbody tr'],
      ['API keys', 'api-keys', 'table tbody tr'],
    ] as const) {
      await page.getByRole('link', { name: link, exact: true }).click();
      await page.locator(ready).first().waitFor();
      if (name === 'new-top-up') {
        await page.getByLabel('Phone number').fill('0744 123 456');
        await page.getByLabel('Amount (EUR)').fill('12.50');
        // Review by keyboard: Enter in a field submits the form.
        await page.getByLabel('Amount (EUR)').press('Enter');
        await page.getByTestId('quote-total').waitFor();
      }
      expect(await fits(), `${name} fits in 375 px`).toBe(true);
      await shot(page, name, NARROW.width);
    }
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByRole('link', { name: '40744123456' }).first().click();
    await page.getByRole('heading', { name: 'Pricing' }).waitFor();
    expect(await fits()).toBe(true);
    await shot(page, 'order-detail', NARROW.width);

    // Every control has a name: inputs and selects a label, buttons and links their text.
    for (const path of ['/dashboard/new', '/dashboard/orders', '/dashboard/webhooks', '/dashboard/keys']) {
      await page.goto(`${url}${path}`);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll('input, select, button, a')]
          .filter((el) => {
            const labelled = (el as HTMLInputElement).labels?.length || el.getAttribute('aria-label') || el.closest('label');
            return !labelled && (el.textContent ?? '').trim() === '';
          })
          .map((el) => el.outerHTML.slice(0, 80)),
      );
      expect(unnamed, path).toEqual([]);
    }
    await context.close();
    expect(faults).toEqual([]);
  }, 120_000);
});
