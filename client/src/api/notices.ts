/**
 * WeChat subscription messages (订阅消息): each 「允许」 in `wx.requestSubscribeMessage` lets the server
 * send her one notice (「轮到你了」, 「对局结束」) while the mini-program is closed, and the server counts
 * them (`POST /v1/me/subscriptions`). WeChat shows its dialog only from inside a tap, so the stage's
 * template ids are read beforehand (`prepare`, when a page that seats her opens) and `ask` starts the
 * dialog first thing in the tap handler that seats her (入席, 开房, 请求入座), without waiting for it.
 * Only the accepted templates are reported, with one Idempotency-Key per consent so a retried report
 * counts once. H5 has no such dialog: both are no-ops there. Nothing here ever fails the tap.
 */
import Taro from '@tarojs/taro'
import { api } from './index'

export interface NoticesDeps {
  platform: 'weapp' | 'h5'
  /** GET /v1/me/subscriptions: whether this stage sends notices, and with which templates. */
  list: () => Promise<{ enabled: boolean; templates: { template_id: string }[] }>
  /** wx.requestSubscribeMessage: template id -> 'accept' | 'reject' | 'ban' | … */
  request: (tmplIds: string[]) => Promise<Record<string, unknown>>
  /** POST /v1/me/subscriptions with the accepted templates. */
  report: (templates: string[], key: string) => Promise<unknown>
  newKey: () => string
}

/** WeChat shows at most three templates in one dialog. */
const MAX_TEMPLATES = 3

export class Notices {
  private templates: string[] = []
  private loading: Promise<void> | null = null

  constructor(private readonly deps: NoticesDeps) {}

  /** Read the stage's templates once (later calls reuse the answer); a failure leaves none. */
  prepare(): Promise<void> {
    if (this.deps.platform !== 'weapp') return Promise.resolve()
    this.loading ??= this.deps.list().then(
      (s) => { this.templates = s.enabled ? s.templates.map((t) => t.template_id).slice(0, MAX_TEMPLATES) : [] },
      () => { this.loading = null },
    )
    return this.loading
  }

  /** Call inside the tap, before anything is awaited: opens WeChat's dialog and reports what she allowed. */
  ask(): Promise<void> {
    if (this.deps.platform !== 'weapp' || !this.templates.length) return Promise.resolve()
    const asked = this.templates
    return this.deps.request(asked).then(async (answer) => {
      const accepted = asked.filter((id) => answer[id] === 'accept')
      if (accepted.length) await this.deps.report(accepted, this.deps.newKey())
    }).catch(() => undefined)
  }
}

export const notices = new Notices({
  platform: process.env.TARO_ENV === 'h5' ? 'h5' : 'weapp',
  list: () => api.GET('/v1/me/subscriptions'),
  request: (tmplIds) => Taro.requestSubscribeMessage({ tmplIds } as Parameters<typeof Taro.requestSubscribeMessage>[0])
    .then((res) => res as unknown as Record<string, unknown>),
  report: (templates, key) => api.POST('/v1/me/subscriptions', { body: { templates }, headers: { 'Idempotency-Key': key } }),
  newKey: () => `consent-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`,
})
