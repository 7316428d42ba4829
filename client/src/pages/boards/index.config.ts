export default definePageConfig({
  navigationBarTitleText: '榜单',
})
