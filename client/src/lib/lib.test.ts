import Taro from '@tarojs/taro'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { KeyValueStore } from '../api/session'
import { ApiError } from '../api/errors'
import { inviteText, typedRoomCode } from './invite'
import { familyOfError, familyRoomUrl, noMaidsHint, roleLabel, roomUrl, scoreText, teamMembers, teamText, titleTag } from './labels'
import { LEAVE_RUNNING, leaveWarning } from './leave'
import { carryPassword, KEEP, listRooms, passwordOf, rememberRoom } from './myRooms'
import { BOARDS, enterAfterLogin, goBoards, goLobby, LOBBY, LOGIN, pageUrl, rememberReturn, RETURN_TTL_MS, takeBoard, takeReturn, toLogin } from './nav'

const fake = Taro as unknown as {
  getCurrentPages: ReturnType<typeof vi.fn>
  navigateBack: ReturnType<typeof vi.fn>
  switchTab: ReturnType<typeof vi.fn>
  reLaunch: ReturnType<typeof vi.fn>
  _storage: Map<string, unknown>
}

function memoryStore(): KeyValueStore {
  const m = new Map<string, string>()
  return { get: (k) => m.get(k) ?? null, set: (k, v) => void m.set(k, v), remove: (k) => void m.delete(k) }
}

describe('回大厅', () => {
  beforeEach(() => {
    fake.navigateBack.mockClear()
    fake.switchTab.mockClear()
  })

  it('a page opened by a link or a reload (alone in the stack) switches to the lobby tab', async () => {
    fake.getCurrentPages.mockReturnValue([{ route: 'pages/room-shengong/index' }])
    await goLobby()
    expect(fake.navigateBack).not.toHaveBeenCalled()
    expect(fake.switchTab).toHaveBeenCalledWith({ url: LOBBY })
  })

  it('a page opened from the lobby goes back to it', async () => {
    fake.getCurrentPages.mockReturnValue([{ route: 'pages/lobby/index' }, { route: 'pages/room-shengong/index' }])
    await goLobby()
    expect(fake.navigateBack).toHaveBeenCalledTimes(1)
    expect(fake.switchTab).not.toHaveBeenCalled()
  })

  it('falls back to the tab when going back fails', async () => {
    fake.getCurrentPages.mockReturnValue([{}, {}])
    fake.navigateBack.mockRejectedValueOnce(new Error('navigateBack:fail'))
    await goLobby()
    expect(fake.switchTab).toHaveBeenCalledWith({ url: LOBBY })
  })
})

describe('入宫 and back to where she was going', () => {
  beforeEach(() => {
    fake.switchTab.mockClear()
    fake.reLaunch.mockClear()
  })

  it('names a page by its path and her params, without Taro\'s own', () => {
    // the mini-program: the route, and the card's query with Taro's timestamp added
    expect(pageUrl({ path: '/pages/room-shengong/index', params: { id: 'abc123', $taroTimestamp: '1700000000000' } }))
      .toBe('/pages/room-shengong/index?id=abc123')
    // H5: the path carries Taro's stamp; an encoded value is not encoded twice
    expect(pageUrl({ path: 'pages/room-baohuang/index?stamp=3', params: { id: 'a%20b', stamp: '3' } })).toBe('/pages/room-baohuang/index?id=a%20b')
    expect(pageUrl({ path: '/pages/room-baohuang/index', params: { id: 'a b' } })).toBe('/pages/room-baohuang/index?id=a%20b')
    expect(pageUrl({ path: '/pages/lobby/index', params: {} })).toBe('/pages/lobby/index')
    expect(pageUrl({ path: LOGIN, params: {} })).toBe(null)
    expect(pageUrl({ path: 'https://evil.example/x', params: {} })).toBe(null)
    expect(pageUrl(null)).toBe(null)
  })

  it('a room\'s link opened before logging in leads to that room after it, once', async () => {
    const store = memoryStore()
    rememberReturn({ path: '/pages/room-zhenhuan/index', params: { id: 'r9', $taroTimestamp: '1' } }, store)
    await enterAfterLogin(store)
    expect(fake.reLaunch).toHaveBeenCalledWith({ url: '/pages/room-zhenhuan/index?id=r9' })
    expect(fake.switchTab).not.toHaveBeenCalled()
    // forgotten once used: the next login goes to the lobby
    expect(takeReturn(store)).toBe(null)
    await enterAfterLogin(store)
    expect(fake.switchTab).toHaveBeenCalledWith({ url: LOBBY })
  })

  it('a tab page is switched to; a page remembered too long ago is not gone back to', async () => {
    const store = memoryStore()
    rememberReturn({ path: '/pages/boards/index', params: { $taroTimestamp: '1' } }, store)
    await enterAfterLogin(store)
    expect(fake.switchTab).toHaveBeenCalledWith({ url: '/pages/boards/index' })
    rememberReturn({ path: '/pages/room-shengong/index', params: { id: 'old' } }, store, 0)
    expect(takeReturn(store, RETURN_TTL_MS + 1)).toBe(null)
    store.set('shengong.return', '{not json')
    expect(takeReturn(store)).toBe(null)
  })

  it('the gate remembers the page in Taro storage (both targets) and goes to the login page', async () => {
    fake._storage.clear()
    await toLogin({ path: '/pages/room-baohuang/index', params: { id: 'r1' } })
    expect(fake.reLaunch).toHaveBeenCalledWith({ url: LOGIN })
    await enterAfterLogin()
    expect(fake.reLaunch).toHaveBeenLastCalledWith({ url: '/pages/room-baohuang/index?id=r1' })
  })
})

describe('the 暗号 she typed, per room', () => {
  it('keeps the newest first, per account, with the 暗号 she typed', () => {
    const store = memoryStore()
    rememberRoom('u1', { id: 'r1', game: 'baohuang' }, store, 1)
    rememberRoom('u1', { id: 'r2', game: 'shengong_d', password: '翊坤宫' }, store, 2)
    rememberRoom('u1', { id: 'r1', game: 'baohuang' }, store, 3)
    rememberRoom('u2', { id: 'r9', game: 'zhenhuan' }, store, 4)
    expect(listRooms('u1', store).map((r) => r.id)).toEqual(['r1', 'r2'])
    expect(passwordOf('u1', 'r2', store)).toBe('翊坤宫')
    expect(passwordOf('u2', 'r2', store)).toBeUndefined()
    // seen again without a 暗号: the one she typed is kept
    rememberRoom('u1', { id: 'r2', game: 'shengong_d', password: null }, store, 5)
    expect(passwordOf('u1', 'r2', store)).toBe('翊坤宫')
  })

  it('carries the 暗号 to the 再战 room, which keeps it (platform P13); a 暗号-less room takes none', () => {
    const store = memoryStore()
    rememberRoom('u1', { id: 'old', game: 'shengong_d', password: '碎玉轩' }, store, 1)
    carryPassword('u1', 'old', { id: 'new', game: 'shengong_d', has_password: true }, store, 2)
    expect(passwordOf('u1', 'new', store)).toBe('碎玉轩')
    carryPassword('u1', 'old', { id: 'open', game: 'shengong_d', has_password: false }, store, 3)
    expect(passwordOf('u1', 'open', store)).toBeUndefined()
    carryPassword('u1', 'unknown', { id: 'other', game: 'shengong_d', has_password: true }, store, 4)
    expect(passwordOf('u1', 'other', store)).toBeUndefined()
  })

  it(`remembers at most ${KEEP} rooms and survives a garbled entry`, () => {
    const store = memoryStore()
    for (let i = 0; i < KEEP + 5; i++) rememberRoom('u', { id: `r${i}`, game: 'baohuang' }, store, i)
    expect(listRooms('u', store)).toHaveLength(KEEP)
    expect(listRooms('u', store)[0].id).toBe(`r${KEEP + 4}`)
    store.set('shengong.rooms.x', '{not json')
    expect(listRooms('x', store)).toEqual([])
  })
})

describe('离席 and 邀请', () => {
  it('says what the server says 离席 would do: close the room, or pass 房主 to the one it names', () => {
    expect(leaveWarning({ closes: true, passes_to: null })).toMatch('即关闭')
    expect(leaveWarning({ closes: false, passes_to: '沈眉庄' })).toBe('你是房主：离席后房主之位交给「沈眉庄」。')
    // nothing more than leaving her seat (not the creator, or a storyteller's room), or she cannot leave now
    expect(leaveWarning({ closes: false, passes_to: null })).toBe(null)
    expect(leaveWarning(null)).toBe(null)
    expect(leaveWarning(undefined)).toBe(null)
  })

  it('回大厅 mid-game says what becomes of her seat in that game: 托管 only in 保皇', () => {
    expect(LEAVE_RUNNING.baohuang).toContain('托管')
    expect(LEAVE_RUNNING.shengong).toContain('待机')
    expect(LEAVE_RUNNING.shengong).not.toContain('托管')
    expect(LEAVE_RUNNING.zhenhuan).toContain('说书人')
    expect(LEAVE_RUNNING.zhenhuan).not.toContain('托管')
    for (const text of Object.values(LEAVE_RUNNING)) expect(text).toContain('「我的对局」')
  })

  it('a room the server names as another game\'s (a 暗号 room too) opens on that game\'s page', () => {
    expect(familyOfError(new ApiError(403, 'PASSWORD_REQUIRED', '这个房间设了暗号', { family: 'baohuang' }))).toBe('baohuang')
    expect(familyOfError(new ApiError(409, 'WRONG_FAMILY', '不是这个玩法的房间', { family: 'zhenhuan' }))).toBe('zhenhuan')
    // no family named (or one without a page here), or another refusal: nothing to go to
    expect(familyOfError(new ApiError(403, 'PASSWORD_REQUIRED', '这个房间设了暗号'))).toBe(undefined)
    expect(familyOfError(new ApiError(403, 'PASSWORD_REQUIRED', '这个房间设了暗号', { family: 'go' }))).toBe(undefined)
    expect(familyOfError(new ApiError(404, 'ROOM_NOT_FOUND', '房间不存在', { family: 'baohuang' }))).toBe(undefined)
    expect(familyOfError(new Error('x'))).toBe(undefined)
    expect(familyRoomUrl('baohuang', 'a b')).toBe('/pages/room-baohuang/index?id=a%20b')
    expect(roomUrl('shengong_d', 'r1')).toBe('/pages/room-shengong/index?id=r1')
  })

  it('an invitation carries the link, the 房号 and the creator\'s 暗号', () => {
    const text = inviteText({ title: '宫斗杀', roomCode: '482913', url: 'https://x/pages/room-shengong/index?id=abc123', password: '翊坤宫' })
    expect(text).toContain('https://x/pages/room-shengong/index?id=abc123')
    expect(text).toContain('房号：482913')
    expect(text).toContain('暗号：翊坤宫')
    expect(inviteText({ title: '保皇', roomCode: '482913' })).toContain('输入房号')
  })

  it('a typed 房号 is read as six plain digits: full-width digits and spaces let go, a long id kept', () => {
    expect(typedRoomCode(' ４８２ ９１３ ')).toBe('482913')
    expect(typedRoomCode('48 29 13')).toBe('482913')
    expect(typedRoomCode(' m3zepe3anjf6yq4k ')).toBe('m3zepe3anjf6yq4k')
  })

  it('a pasted invitation is read for the 房号 it names', () => {
    expect(typedRoomCode('房号：482913')).toBe('482913')
    expect(typedRoomCode(inviteText({ title: '保皇', roomCode: '482913', password: '翊坤宫' }))).toBe('482913')
    const withLink = inviteText({ title: '保皇', roomCode: '482913', url: 'https://x.cn:443/pages/room-baohuang/index?id=m3zepe3anjf6yq4k' })
    expect(typedRoomCode(withLink)).toBe('482913')
    expect(typedRoomCode('房号 ４８２ ９１３')).toBe('482913')
  })

  it('a lobby row shows what the room\'s title adds to the game\'s: the 关卡, the 牌制', () => {
    expect(titleTag('宫斗杀·关卡2', '宫斗杀')).toBe('关卡2')
    expect(titleTag('保皇·经典', '保皇')).toBe('经典')
    expect(titleTag('宫斗杀', '宫斗杀')).toBe('')
  })

  it('a score reads whole, a loss with the same minus (U+2212) as 保皇\'s score table', () => {
    expect(scoreText(-2)).toBe('−2')
    expect(scoreText(-12.4)).toBe('−12.4')
    expect(scoreText(8.6)).toBe('8.6')
    expect(scoreText(30.164)).toBe('30.16')  // two 卡牌局 scores must not read the same
    expect(scoreText(0)).toBe('0')
    expect(scoreText(-0.001)).toBe('0')
  })

  it('names the host by the game: 说书人 only in 血染, 司礼 in 深宫杀, 主持 in 保皇', () => {
    expect(roleLabel('host', 'zhenhuan')).toBe('说书人')
    expect(roleLabel('host', 'shengong_d')).toBe('司礼')
    expect(roleLabel('host', 'baohuang')).toBe('主持')
    expect(roleLabel('spectator', 'shengong_a')).toBe('观战')
  })
})

describe('宫女图鉴 for a 妃子 without 宫女', () => {
  it('says where they come from and that only R cards play (seed C①); nothing once she has one', () => {
    expect(noMaidsHint(0)).toBe('尚无宫女在侧。宫女由司礼赏赐；良品（R）在深宫杀里生效，珍品、绝品只作收藏')
    expect(noMaidsHint(1)).toBeNull()
  })
})

describe('a fastest-clear team', () => {
  it('names all three, one who never moved marked 未出手 (seed ⑦ 保留小组三人姓名)', () => {
    expect(teamText([{ name: '甄嬛', played: true }, { name: '眉庄', played: false }, { name: '陵容' }]))
      .toBe('甄嬛、眉庄（未出手）、陵容')
  })

  it('gives each her score (seed ⑦ 保留小组三人姓名与各自积分)', () => {
    expect(teamText([{ name: '甄嬛', score: 80 }, { name: '眉庄', score: 30, played: false }, { name: '陵容', score: 66.5 }]))
      .toBe('甄嬛 80 分、眉庄（未出手） 30 分、陵容 66.5 分')
  })

  it('gives one entry a member, for the board to keep each on one line', () => {
    expect(teamMembers([{ name: '甄嬛', score: 82 }, { name: '沈眉庄', score: 80 }, { name: '安陵容', score: 90 }]))
      .toEqual(['甄嬛 82 分', '沈眉庄 80 分', '安陵容 90 分'])
  })
})

describe('看榜单', () => {
  it('opens the boards tab on the board the server named for the room, once', async () => {
    const store = memoryStore()
    fake.switchTab.mockClear()
    await goBoards('cards-tournament', store)
    expect(fake.switchTab).toHaveBeenCalledWith({ url: BOARDS })
    expect(takeBoard(store)).toEqual({ game: 'cards', kind: 'tournament' })
    expect(takeBoard(store)).toBe(null)  // a later visit to the tab keeps her own choice
    await goBoards(null, store)  // a game that keeps no board: the tab as it was
    expect(takeBoard(store)).toBe(null)
  })
})
