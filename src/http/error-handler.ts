import type { ErrorObject } from 'ajv';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStorageUnavailable } from '../app/health.js';
import { AppError, type FieldProblem } from '../domain/errors.js';
import { fieldProblems } from './validation.js';
import { problemBody, TransportError, type ProblemCode } from './problem.js';

export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ProblemCode,
  detail: string,
  errors?: readonly FieldProblem[],
) {
  const body = problemBody(code, detail, request.id, errors);
  return reply.code(body.status).header('x-request-id', request.id).type('application/problem+json').send(body);
}

/** Fastify's own errors, by their codes, translated into ours. */
const FRAMEWORK_CODES: Readonly<Record<string, ProblemCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'validation_failed',
};

const FRAMEWORK_DETAIL: Partial<Record<ProblemCode, string>> = {
  unsupported_media_type: 'Send the body as JSON with Content-Type: application/json.',
  payload_too_large: 'The body is larger than the 256 KiB the API accepts.',
  invalid_json: 'The body is not valid JSON.',
};

/**
 * Every error leaves as problem+json. Broken rules (AppError), the transport's refusals (TransportError)
 * and the framework's are the caller's doing and are answered plainly; anything else is ours, logged
 * with its cause and answered with no internals in the body.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | TransportError, request, reply) => {
    if (error instanceof AppError) return sendProblem(request, reply, error.code, error.message, error.errors);
    if (error instanceof TransportError) return sendProblem(request, reply, error.code, error.message);
    const validation = (error as FastifyError).validation as ErrorObject[] | undefined;
    if (validation) {
      const context = (error as FastifyError).validationContext ?? 'body';
      const code: ProblemCode = context === 'querystring' ? 'invalid_query' : 'validation_failed';
      const problems = fieldProblems(validation, context);
      return sendProblem(request, reply, code, problems.map((p) => p.message).join('; '), problems);
    }
    const mapped = error.code ? FRAMEWORK_CODES[error.code] : undefined;
    if (mapped) return sendProblem(request, reply, mapped, FRAMEWORK_DETAIL[mapped] ?? error.message);
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return sendProblem(request, reply, 'invalid_json', 'The body is not valid JSON.');
    }
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      request.log.info({ err: error }, 'request refused by the framework');
      return sendProblem(request, reply, 'validation_failed', error.message);
    }
    if (isStorageUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      reply.header('retry-after', '5');
      return sendProblem(request, reply, 'unavailable', 'The service cannot reach its database right now; nothing was changed. Retry shortly.');
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(request, reply, 'internal_error', `Something went wrong on our side. Quote request id ${request.id} to support.`);
  });

  // Every route's method and path, so that a known path asked with another method is 405, not 404.
  const routes: Array<{ method: string; path: RegExp }> = [];
  app.addHook('onRoute', (route) => {
    const path = new RegExp(`^${route.url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}$`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, path });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(routes.filter((r) => r.path.test(path)).map((r) => r.method))];
    if (allowed.length > 0) {
      reply.header('allow', allowed.join(', '));
      return sendProblem(request, reply, 'method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}.`);
    }
    return sendProblem(request, reply, 'not_found', `There is no ${request.method} ${path}.`);
  });
}

