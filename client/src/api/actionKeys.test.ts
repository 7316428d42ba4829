import { describe, expect, it } from 'vitest'
import { ActionKeys, IntentKey, stableJson } from './actionKeys'
import { handIntent } from '../games/zhenhuan/model'
import { ApiError, networkError } from './errors'

describe('ActionKeys', () => {
  it('sends an action again with its key while its answer may have been lost, and a new key after', async () => {
    let n = 0
    const keys = new ActionKeys(() => `k${++n}`)
    const vote = { type: 'vote', yes: true }
    const sent: string[] = []
    const fail = (e: unknown) => async (key: string) => { sent.push(key); throw e }
    await expect(keys.send(vote, fail(networkError()))).rejects.toBeInstanceOf(ApiError)
    await expect(keys.send(vote, fail(new ApiError(503, 'SERVICE_UNAVAILABLE', '稍后再试')))).rejects.toThrow()
    await keys.send(vote, async (key) => { sent.push(key); return 'ok' })
    await keys.send(vote, async (key) => { sent.push(key); return 'ok' })
    expect(sent).toEqual(['k1', 'k1', 'k1', 'k2'])
  })

  it('retires the key when the server refused the action, and keeps actions apart', async () => {
    let n = 0
    const keys = new ActionKeys(() => `k${++n}`)
    const sent: string[] = []
    const refuse = async (key: string) => { sent.push(key); throw new ApiError(422, 'ALREADY_VOTED', '已经投过票') }
    await expect(keys.send({ type: 'vote', yes: true }, refuse)).rejects.toThrow('已经投过票')
    await keys.send({ type: 'vote', yes: true }, async (key) => void sent.push(key))
    await keys.send({ type: 'nominate', nominee: 3 }, async (key) => void sent.push(key))
    expect(sent).toEqual(['k1', 'k2', 'k3'])
  })

  it('a hand in the next vote gets a new key though its body is the same (the intent names the vote)', async () => {
    let n = 0
    const keys = new ActionKeys(() => `k${++n}`)
    const hand = { type: 'vote', yes: true }
    const sent: string[] = []
    const lost = async (key: string) => { sent.push(key); throw networkError() }
    const day = (count: number, nominee: number) => ({ number: 2, nominations: Array(count).fill({}), vote: { nominee } })
    await expect(keys.send(hand, lost, handIntent(day(1, 4) as never, true))).rejects.toBeInstanceOf(ApiError)
    await keys.send(hand, async (key) => void sent.push(key), handIntent(day(2, 7) as never, true))
    await keys.send(hand, async (key) => void sent.push(key), handIntent(day(1, 4) as never, true))  // the late retry
    expect(sent).toEqual(['k1', 'k2', 'k1'])
  })
})

describe('IntentKey (开房, 添妃子)', () => {
  const room = { game: 'baohuang', options: { variant: 'classic', baoliu: true }, password: null }

  it('sends a create again with its key until it succeeds — after a lost answer, a 5xx or a refusal — and a new key after', async () => {
    let n = 0
    const keys = new IntentKey(() => `k${++n}`)
    const sent: string[] = []
    const fail = (e: unknown) => async (key: string) => { sent.push(key); throw e }
    await expect(keys.send(room, fail(networkError()))).rejects.toBeInstanceOf(ApiError)
    await expect(keys.send(room, fail(new ApiError(503, 'SERVICE_UNAVAILABLE', '稍后再试')))).rejects.toThrow()
    await expect(keys.send(room, fail(new ApiError(409, 'ROOM_CODE_TAKEN', '暂时分不出房号，请重试')))).rejects.toThrow()
    // the same options read again in another order are the same intent
    await keys.send({ password: null, options: { baoliu: true, variant: 'classic' }, game: 'baohuang' }, async (key) => { sent.push(key); return 'room' })
    // made: the same options once more open a second room, on purpose
    await keys.send(room, async (key) => { sent.push(key); return 'room2' })
    expect(sent).toEqual(['k1', 'k1', 'k1', 'k1', 'k2'])
  })

  it('takes a new key when what is being created changes', async () => {
    let n = 0
    const keys = new IntentKey(() => `k${++n}`)
    const sent: string[] = []
    const lost = async (key: string) => { sent.push(key); throw networkError() }
    await expect(keys.send({ name: '甄嬛', looks: 60 }, lost)).rejects.toThrow()
    await expect(keys.send({ name: '甄嬛', looks: 80 }, lost)).rejects.toThrow()
    await expect(keys.send({ name: '甄嬛', looks: 80 }, lost)).rejects.toThrow()
    expect(sent).toEqual(['k1', 'k2', 'k2'])
  })

  it('reads nested objects with sorted keys', () => {
    expect(stableJson({ b: 1, a: { d: [2, { f: 1, e: 0 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"e":0,"f":1}]},"b":1}')
  })
})
