import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppError } from '../domain/errors.js';
import { BODY_LIMIT_BYTES } from './limits.js';
import { TransportError } from './problem.js';

/**
 * The JSON body parser: Fastify's own, but saying which refusal it is. A body with a `__proto__` key (or
 * `constructor.prototype`) is valid JSON that could alter object prototypes once merged somewhere;
 * it is refused as such, not called "not valid JSON".
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES }, (_request, body, done) => {
    if (body === '') return done(new TransportError('invalid_json', 'The body is empty; send a JSON object.'), undefined);
    try {
      done(null, secureJson.parse(body as string, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch (error) {
      done(
        /prototype property/.test((error as Error).message)
          ? new AppError('validation_failed', 'The body has a "__proto__" or "constructor.prototype" key, which is refused (it could alter object prototypes).', [
              { field: 'body', code: 'forbidden_key', message: 'keys named __proto__, or constructor holding prototype, are refused' },
            ])
          : new TransportError('invalid_json', 'The body is not valid JSON.'),
        undefined,
      );
    }
  });
}
