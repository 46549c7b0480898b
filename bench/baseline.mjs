// The machine's limit for an HTTP/JSON service: a bare node:http server that reads the request and
// answers the same bytes. Every figure of the service is reported as a ratio to this, measured in the
// same run on the same machine.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const body = chunks.length ? Buffer.concat(chunks) : Buffer.from('{}');
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`ready ${server.address().port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
