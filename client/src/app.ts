import type { PropsWithChildren } from 'react'
import Taro, { useLaunch } from '@tarojs/taro'
import { session } from './api'
import { toLogin } from './lib/nav'
import './app.css'

function App({ children }: PropsWithChildren) {
  useLaunch(() => {
    // a refused token that could not be renewed: back to the gate, and to this page after it
    session.onSignedOut(() => {
      void toLogin(Taro.getCurrentInstance().router)
    })
  })
  return children
}

export default App
