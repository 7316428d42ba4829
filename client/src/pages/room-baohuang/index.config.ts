export default definePageConfig({
  navigationBarTitleText: '保皇',
})
