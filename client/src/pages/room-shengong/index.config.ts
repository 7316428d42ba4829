export default definePageConfig({
  navigationBarTitleText: '深宫杀',
  enableShareAppMessage: true,
})
