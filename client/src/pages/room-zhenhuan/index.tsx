import { RoomPage } from '../../components/room/RoomPage'

/** A 血染甄嬛传 room: summary, seats and status for now; the game screen comes here later. */
export default function Room() {
  return <RoomPage family='zhenhuan' />
}
