import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { closeTestContext, describeEachDialect, openTestContext } from '../support/harness.js';

/** Blocks the event loop, as a CPU-heavy burst would. */
const block = (ms: number) => {
  const until = Date.now() + ms;
  while (Date.now() < until);
};

describeEachDialect('overload and slow clients', (dialect) => {
  it('sheds load with 503 problem+json while the event loop is saturated', async () => {
    const ctx = await openTestContext(dialect, { TOPUP_MAX_EVENT_LOOP_DELAY_MS: '50' });
    const { key } = await ctx.account();
    expect((await ctx.call(key, { method: 'GET', url: '/v1/account/balance' })).statusCode).toBe(200);
    let shed: { statusCode: number; headers: Record<string, unknown>; json(): { code: string } } | undefined;
    for (let i = 0; i < 20 && !shed; i++) {
      block(300);
      await new Promise((r) => setTimeout(r, 5));
      const response = await ctx.call(key, { method: 'GET', url: '/v1/account/balance' });
      if (response.statusCode === 503) shed = response;
    }
    expect(shed?.json().code).toBe('unavailable');
    expect(shed?.headers['content-type']).toContain('application/problem+json');
    expect(shed?.headers['retry-after']).toBe('5');
    await closeTestContext(ctx);
  });

  it('cuts off a client that trickles its headers or its body', async () => {
    const ctx = await openTestContext(dialect, { TOPUP_HTTP_HEADERS_TIMEOUT_MS: '500', TOPUP_HTTP_REQUEST_TIMEOUT_MS: '800' });
    const { key } = await ctx.account();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (ctx.app.server.address() as { port: number }).port;
    const slow = (partial: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(partial));
        let answer = '';
        socket.on('data', (chunk) => (answer += chunk.toString()));
        socket.on('close', () => resolve(answer));
        socket.on('error', () => resolve(answer));
      });
    // Headers never finished, then a body that never arrives: the server closes both connections.
    const [headers, body] = await Promise.all([
      slow('POST /v1/check-number HTTP/1.1\r\nHost: x\r\nX-Authorization: tk_test_'),
      slow(`POST /v1/check-number HTTP/1.1\r\nHost: x\r\nX-Authorization: ${key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":`),
    ]);
    // Reaching here means both sockets were closed by the server; any answer it gave first is a 408.
    for (const answer of [headers, body]) expect(answer === '' || answer.startsWith('HTTP/1.1 408'), answer).toBe(true);
    await closeTestContext(ctx);
  });
});
