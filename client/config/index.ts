import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import TsconfigPathsPlugin from 'tsconfig-paths-webpack-plugin'

/**
 * One codebase, two targets: `taro build --type weapp` → dist/weapp (open it in WeChat DevTools),
 * `taro build --type h5` → dist/h5 (served by infra/local_server.py on the API's origin).
 *
 * Build-time settings (environment variables):
 * - TARO_APP_ID: the mini-program appid written into dist/weapp/project.config.json (default: the
 *   tourist appid of project.config.json).
 * - SHENGONG_API_BASE: the API's absolute base URL for the mini-program (default
 *   http://127.0.0.1:8000, the local server). The H5 build always calls its own origin ('').
 */
export default defineConfig<'webpack5'>(async () => {
  const env = process.env.TARO_ENV
  const apiBase = env === 'h5' ? '' : (process.env.SHENGONG_API_BASE || 'http://127.0.0.1:8000').replace(/\/+$/, '')
  const config: UserConfigExport<'webpack5'> = {
    projectName: 'shengong',
    date: '2026-11-30',
    designWidth: 375,
    deviceRatio: { 375: 2, 640: 2.34 / 2, 750: 1, 828: 1.81 / 2 },
    sourceRoot: 'src',
    outputRoot: `dist/${env}`,
    plugins: [],
    defineConstants: {
      API_BASE: JSON.stringify(apiBase),
    },
    copy: { patterns: [], options: {} },
    framework: 'react',
    compiler: 'webpack5',
    cache: { enable: false },
    logger: { quiet: true, stats: false },
    mini: {
      postcss: {
        pxtransform: { enable: true, config: {} },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } },
      },
      webpackChain(chain) {
        chain.resolve.plugin('tsconfig-paths').use(TsconfigPathsPlugin)
      },
    },
    h5: {
      publicPath: '/',
      staticDirectory: 'static',
      router: { mode: 'browser' },
      output: {
        filename: 'js/[name].[contenthash:8].js',
        chunkFilename: 'js/[name].[contenthash:8].js',
      },
      miniCssExtractPluginOption: {
        ignoreOrder: true,
        filename: 'css/[name].[contenthash:8].css',
        chunkFilename: 'css/[name].[contenthash:8].css',
      },
      imageUrlLoaderOption: { limit: 4096, name: 'static/images/[name].[contenthash:8].[ext]' },
      postcss: {
        autoprefixer: { enable: true, config: {} },
        pxtransform: { enable: true, config: {} },
        cssModules: { enable: false, config: { namingPattern: 'module', generateScopedName: '[name]__[local]___[hash:base64:5]' } },
      },
      webpackChain(chain) {
        chain.resolve.plugin('tsconfig-paths').use(TsconfigPathsPlugin)
        // React + Taro's H5 runtime are most of the entry (~120 KB gzipped); warn only past that
        chain.performance.maxEntrypointSize(512 * 1024).maxAssetSize(384 * 1024)
      },
    },
  }
  return config
})
