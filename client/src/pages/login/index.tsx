import { useEffect, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { session } from '../../api'
import { notDelivered } from '../../api/errors'
import { ErrorLine } from '../../components/ErrorLine'
import { NetBanner } from '../../components/NetBanner'
import { SealButton } from '../../components/SealButton'
import { enterAfterLogin } from '../../lib/nav'
import './index.css'

/** The local stage's demo players (H5 dev login). */
const DEMO = ['司礼', '甄嬛', '沈眉庄', '安陵容', '华妃', '皇后', '敬妃', '端妃', '叶澜依']
const IS_H5 = process.env.TARO_ENV === 'h5'

/** In: to the page she was going to when the gate sent her here (a room's link), else the lobby. */
function enter() {
  void enterAfterLogin()
}

export default function Login() {
  const [name, setName] = useState(session.name() ?? '')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()

  useEffect(() => {
    if (session.isLoggedIn()) enter()
  }, [])

  const login = async (who?: string) => {
    const n = (who ?? name).trim()
    if (IS_H5 && !n) {
      setError('请写下名号')
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      if (IS_H5) await session.loginByName(n)
      else await session.loginWeChat(n || undefined)  // unwritten: she keeps the name she has
      enter()
    } catch (e) {
      setError(notDelivered(e))  // logging in is safe to send again: she may tap again
    } finally {
      setBusy(false)
    }
  }

  return (
    <View className='gate theme'>
      <NetBanner />
      <View className='gate-roof' />
      <View className='gate-plaque'>
        <Text className='gate-plaque-text'>深宫</Text>
      </View>
      <View className='gate-sub'>深宫杀 · 保皇 · 血染甄嬛传</View>
      <View className='gate-door'>
        <View className='gate-leaf gate-leaf-left' />
        <View className='gate-leaf gate-leaf-right' />
      </View>
      <View className='gate-card'>
        {IS_H5 ? (
          <>
            <View className='field-label'>名号</View>
            <Input
              className='input'
              value={name}
              maxlength={20}
              placeholder='写下你的名号'
              onInput={(e) => setName(e.detail.value)}
              onConfirm={() => void login()}
            />
            <View className='gate-demo-label muted'>本地试玩：点选一位</View>
            <View className='chip-row'>
              {DEMO.map((d) => (
                <View key={d} className={`chip ${d === name ? 'chip-on' : ''}`} onClick={() => setName(d)}>{d}</View>
              ))}
            </View>
            <ErrorLine error={error} />
            <View className='gate-go'>
              <SealButton size='big' busy={busy} onClick={() => void login()}>入宫</SealButton>
            </View>
          </>
        ) : (
          <>
            <View className='gate-hint muted'>以微信身份入宫</View>
            {/* type nickname: WeChat offers her own nickname above the keyboard (and clears one that fails
                its check on blur); left empty, a new player is 宫人…, a returning one keeps her name */}
            <View className='field-label'>名号（可不填）</View>
            <Input
              className='input'
              type='nickname'
              value={name}
              maxlength={20}
              placeholder='用微信昵称，或写一个名号'
              onInput={(e) => setName(e.detail.value)}
              onBlur={(e) => setName(e.detail.value)}
            />
            <ErrorLine error={error} />
            <View className='gate-go'>
              <SealButton size='big' busy={busy} onClick={() => void login()}>微信入宫</SealButton>
            </View>
          </>
        )}
      </View>
    </View>
  )
}
