import { describe, expect, it, vi } from 'vitest'
import { Notices, type NoticesDeps } from './notices'

const flush = () => new Promise((r) => setTimeout(r, 0))

function deps(over: Partial<NoticesDeps> = {}) {
  let n = 0
  return {
    platform: 'weapp' as const,
    list: vi.fn(async () => ({ enabled: true, templates: [{ template_id: 'TPL-TURN' }, { template_id: 'TPL-END' }] })),
    request: vi.fn(async (_ids: string[]) => ({ 'TPL-TURN': 'accept', 'TPL-END': 'reject', errMsg: 'requestSubscribeMessage:ok' })),
    report: vi.fn(async (_templates: string[], _key: string) => ({})),
    newKey: () => `k${++n}`,
    ...over,
  }
}

describe('Notices', () => {
  it('opens the dialog at once inside the tap and reports only what she allowed, with a key per consent', async () => {
    const d = deps()
    const notices = new Notices(d)
    await notices.prepare()
    const done = notices.ask()
    expect(d.request).toHaveBeenCalledWith(['TPL-TURN', 'TPL-END'])  // synchronously: WeChat needs the tap
    await done
    expect(d.report).toHaveBeenCalledWith(['TPL-TURN'], 'k1')
    await notices.ask()
    expect(d.report).toHaveBeenLastCalledWith(['TPL-TURN'], 'k2')
    await notices.prepare()
    expect(d.list).toHaveBeenCalledTimes(1)
  })

  it('asks nothing on H5, where a stage sends no notices, or before the templates are known', async () => {
    for (const d of [deps({ platform: 'h5' }), deps({ list: vi.fn(async () => ({ enabled: false, templates: [] })) })]) {
      const notices = new Notices(d)
      await notices.prepare()
      await notices.ask()
      expect(d.request).not.toHaveBeenCalled()
    }
    const d = deps()
    await new Notices(d).ask()
    expect(d.request).not.toHaveBeenCalled()
  })

  it('never fails the tap: a dismissed dialog, a refusal of all or a lost report are swallowed', async () => {
    const dismissed = deps({ request: vi.fn(async () => { throw new Error('requestSubscribeMessage:fail cancel') }) })
    const refused = deps({ request: vi.fn(async () => ({ 'TPL-TURN': 'reject', 'TPL-END': 'ban' })) })
    const lost = deps({ report: vi.fn(async () => { throw new Error('network') }) })
    for (const d of [dismissed, refused, lost]) {
      const notices = new Notices(d)
      await notices.prepare()
      await expect(notices.ask()).resolves.toBeUndefined()
    }
    expect(refused.report).not.toHaveBeenCalled()
    expect(lost.report).toHaveBeenCalledTimes(1)
  })

  it('tries the template list again after a failure', async () => {
    const list = vi.fn().mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValueOnce({ enabled: true, templates: [{ template_id: 'TPL-TURN' }] })
    const d = deps({ list })
    const notices = new Notices(d)
    await notices.prepare()
    await notices.ask()
    expect(d.request).not.toHaveBeenCalled()
    await notices.prepare()
    await notices.ask()
    await flush()
    expect(d.request).toHaveBeenCalledWith(['TPL-TURN'])
  })
})
