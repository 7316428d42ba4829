import { describe, expect, it } from 'vitest'
import { ActionKeys } from './actionKeys'
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
})
