/**
 * Idempotency-Keys. ActionKeys: for actions sent without a step (a 血染 player's: the step count is hidden from
 * her). The server remembers the key of her last applied action; the same action keeps its key until
 * it is answered, so tapping again after a lost answer cannot count twice. An answer that may have
 * been lost on the way (no answer at all, a 5xx) keeps the key; any other answer retires it.
 * IntentKey (below): for creates (开房, 添妃子).
 */
import { ApiError } from './errors'

export class ActionKeys {
  private readonly keys = new Map<string, string>()

  constructor(private readonly newKey: () => string = () => `act-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`) {}

  /**
   * `intent` names what she means when the body alone does not: a 举手 body is the same in every vote,
   * so a key kept from one vote's lost answer must not be sent with the next vote's hand (the server
   * would answer it as that retry and count nothing) — the vote it is for goes into the intent.
   */
  async send<T>(action: unknown, post: (key: string) => Promise<T>, intent: unknown = action): Promise<T> {
    const id = stableJson(intent)
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

/** A value's JSON with object keys sorted, so the same form read twice names the same intent. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  ))
}

/**
 * The Idempotency-Key of one intent to create something (开房, 添妃子): the same request sent again —
 * after a lost answer, a 5xx, a refusal she may retry (ROOM_CODE_TAKEN) — keeps its key, so the server
 * answers with what the first one made instead of making a second. The key is renewed only once the
 * create succeeded, or when what is being created changes (the server refuses an old key with a new
 * body: IDEMPOTENCY_KEY_REUSED).
 */
export class IntentKey {
  private intent: string | null = null
  private key = ''

  constructor(private readonly newKey: () => string) {}

  async send<T>(intent: unknown, post: (key: string) => Promise<T>): Promise<T> {
    const id = stableJson(intent)
    if (id !== this.intent) {
      this.intent = id
      this.key = this.newKey()
    }
    const answer = await post(this.key)
    this.intent = null  // made: the next create, even an identical one, is a new intent
    return answer
  }
}

/** A fresh key for an IntentKey: `${prefix}-<time>-<random>`. */
export function freshKey(prefix: string): () => string {
  return () => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`
}
