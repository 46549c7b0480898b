import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { SignedIn } from './types.js';

export const SessionContext = createContext<SignedIn | undefined>(undefined);

/** Who is signed in; only rendered inside the signed-in shell. */
export function useSession(): SignedIn {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a session');
  return session;
}

/** Whether the signed-in key may change anything (a `read` key sees no mutating control). */
export const canWrite = (session: SignedIn): boolean => session.scope === 'full';
