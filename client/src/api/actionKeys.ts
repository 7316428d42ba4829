/**
 * Idempotency-Keys for actions sent without a step (a 血染 player's: the step count is hidden from
 * her). The server remembers the key of her last applied action; the same action keeps its key until
 * it is answered, so tapping again after a lost answer cannot count twice. An answer that may have
 * been lost on the way (no answer at all, a 5xx) keeps the key; any other answer retires it.
 */
import { ApiError } from './errors'

export class ActionKeys {
  private readonly keys = new Map<string, string>()

  constructor(private readonly newKey: () => string = () => `act-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`) {}

  async send<T>(action: unknown, post: (key: string) => Promise<T>): Promise<T> {
    const id = JSON.stringify(action)
    const key = this.keys.get(id) ?? this.newKey()
    this.keys.set(id, key)
    try {
      const answer = await post(key)
      this.keys.delete(id)
      return answer
    } catch (e) {
      const maybeApplied = e instanceof ApiError && (e.isNetwork || e.status >= 500)
      if (!maybeApplied) this.keys.delete(id)
      throw e
    }
  }
}
