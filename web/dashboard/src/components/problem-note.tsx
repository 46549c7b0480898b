import type { ApiError } from '../api.js';

/** An error as the API explained it: the message, each field's problem, and the request id to quote. */
export function ProblemNote({ error }: { error: ApiError | undefined }) {
  if (!error) return null;
  return (
    <div class="problem" role="alert">
      <p>{error.message}</p>
      {error.errors.length > 0 && (
        <ul>
          {error.errors.map((e) => (
            <li key={`${e.arrayPosition ?? ''}${e.field}${e.code}`}>
              {e.arrayPosition !== undefined ? `Row ${e.arrayPosition + 1}: ` : ''}
              {e.message}
            </li>
          ))}
        </ul>
      )}
      {error.requestId && <p class="muted small">Request id {error.requestId}</p>}
    </div>
  );
}
