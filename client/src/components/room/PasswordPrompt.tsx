import { useState } from 'react'
import { Input, View } from '@tarojs/components'
import { ErrorLine } from '../ErrorLine'
import { SealButton } from '../SealButton'
import { Sheet } from '../Sheet'

/** 报暗号 before joining or watching a locked room. */
export function PasswordPrompt({ open, busy, error, title, onClose, onSubmit }: {
  open: boolean
  busy: boolean
  error: unknown
  title: string
  onClose: () => void
  onSubmit: (password: string) => void
}) {
  const [password, setPassword] = useState('')
  return (
    <Sheet
      title={title}
      open={open}
      onClose={onClose}
      footer={(
        <>
          <SealButton kind='ghost' onClick={onClose}>作罢</SealButton>
          <SealButton busy={busy} onClick={() => onSubmit(password.trim())}>报号</SealButton>
        </>
      )}
    >
      <View className='field'>
        <View className='field-label'>此房设有暗号</View>
        <Input className='input' value={password} maxlength={16} focus placeholder='请报暗号' onInput={(e) => setPassword(e.detail.value)} />
      </View>
      <ErrorLine error={error} />
    </Sheet>
  )
}
