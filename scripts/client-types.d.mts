// Types of client-types.mjs, for the drift test that imports it.
export const GENERATED: string;
export function servedDocument(): Promise<unknown>;
export function renderClientTypes(document: unknown): Promise<string>;
