export default defineAppConfig({
  pages: [
    'pages/login/index',
    'pages/lobby/index',
    'pages/boards/index',
    'pages/me/index',
    'pages/room-shengong/index',
    'pages/room-baohuang/index',
    'pages/room-zhenhuan/index',
  ],
  window: {
    backgroundTextStyle: 'dark',
    backgroundColor: '#F6EFDF',
    navigationBarBackgroundColor: '#8B1A1A',
    navigationBarTitleText: '深宫',
    navigationBarTextStyle: 'white',
  },
  tabBar: {
    color: '#8A7A63',
    selectedColor: '#8B1A1A',
    backgroundColor: '#FBF6EA',
    borderStyle: 'black',
    list: [
      { pagePath: 'pages/lobby/index', text: '大厅', iconPath: 'assets/tab/lobby.png', selectedIconPath: 'assets/tab/lobby-on.png' },
      { pagePath: 'pages/boards/index', text: '榜单', iconPath: 'assets/tab/boards.png', selectedIconPath: 'assets/tab/boards-on.png' },
      { pagePath: 'pages/me/index', text: '我的', iconPath: 'assets/tab/me.png', selectedIconPath: 'assets/tab/me-on.png' },
    ],
  },
  networkTimeout: { request: 15000 },
})
