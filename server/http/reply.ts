/**
 * The success envelope. Routes declare `successEnvelope(contractSchema)` as their 200 response, and the response
 * serializer encodes `data` through it, which strips every key the contract does not name: a stray column such as
 * password_hash can never reach a response.
 */
export function ok<T>(data: T, message?: string): { status: 'success'; data: T; message?: string } {
  return { status: 'success', data, ...(message ? { message } : {}) };
}
