/**
 * Runs tasks one at a time in call order. The state store uses one for every mutation, so quota
 * checks and the replacement they allow happen together: two saves (to one id or two) can never
 * both pass a check that only one of them fits.
 */
export class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(() => task());
    this.tail = result.catch(() => undefined);
    return result;
  }
}
