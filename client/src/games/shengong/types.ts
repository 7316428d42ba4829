/** The 深宫杀 shapes the screens use, all from the generated contract (no hand-written copies). */
import type { Schemas } from '../../api'
import type { Op, SuccessData } from '../../api/types'

/** GET /v1/games/shengong/rooms/{room_id}: room, viewer, pending, server_time and the game as I may see it. */
export type RoomView = SuccessData<Op<'/v1/games/shengong/rooms/{room_id}', 'get'>>
export type Game = Schemas['ShengongView']
export type Pending = Schemas['ShengongPendingOut']
export type Player = Schemas['ShengongPlayerView']
export type Opponent = Schemas['ShengongOpponentView']
export type PlaceView = Schemas['ShengongPlaceView']
export type Place = Schemas['ShengongPlace']
export type Option = Schemas['ShengongActionOption']
export type ActionType = Schemas['ShengongActionType']
export type Action = Schemas['ShengongAction']
export type Slot = Schemas['ShengongSlot']
export type Card = Schemas['ShengongCardView']
export type Maid = Schemas['ShengongMaidView']
export type Mine = Schemas['ShengongSeatPrivate']
export type Report = Schemas['ShengongReportOut']
export type Line = Schemas['ShengongReportLine']
export type Scope = Schemas['ShengongScope']
export type Outcome = Schemas['ShengongOutcomeOut']
export type ClearRow = Schemas['ClearRowOut']
export type Mode = Game['mode']
