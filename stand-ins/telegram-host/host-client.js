// The browser side of the Telegram host emulator: plain JS, no build step. It plays Telegram Web's
// part: the app in the iframe posts JSON {eventType, eventData} to window.parent, and the host
// answers with the same shape through iframe.contentWindow.postMessage.
;(() => {
  'use strict'
  const config = JSON.parse(document.getElementById('host-config').textContent)
  // How Telegram's requestWriteAccess prompt is answered: the page's ?write_access= (read before the
  // page rewrites its query), else the host's option.
  const writeAccessMode = new URLSearchParams(location.search).get('write_access') || config.writeAccess
  const $ = (id) => document.getElementById(id)
  const NAMES = { 1001: 'Alice', 1002: 'Bob', 1003: 'Carol', 1004: 'Dave', 1005: 'Eve' }
  const STORE_KEY = 'axiom-host:form'

  /** What tests read: every message both ways, and the launches. */
  const record = { events: [], launches: [], state: null }
  window.__axiomHost = record

  const state = {
    form: null, // the last launched form
    iframe: null,
    ready: false,
    expanded: false,
    closed: false,
    visible: true,
    backVisible: false,
    headerColor: null, // { color, key }
    bgColor: null,
    bottomBarColor: null,
    allowVerticalSwipe: true,
    orientationLocked: false,
    needCloseConfirmation: false,
    share: null, // { id, prepared }
    chatOpen: false, // the bot's chat is shown instead of the app
    chatSeen: 0, // the last message id drawn
    lastBotLink: '', // the last t.me link to the bot the app opened
    popup: null,
    mainButton: { is_visible: false },
    fullscreen: false,
  }
  record.state = state

  // ---------- the device: Bot API 7.2–9.x features ----------
  // Method names, parameters and answers from Telegram's web-events page (core.telegram.org/api/web-events)
  // and the tables of docs.telegram-mini-apps.com/platform/methods and /platform/events.
  /** The first client version that knows each method; an older client ignores it, as Telegram's do. */
  const SINCE = {
    web_app_biometry_get_info: '7.2', web_app_biometry_request_access: '7.2', web_app_biometry_request_auth: '7.2',
    web_app_biometry_update_token: '7.2', web_app_biometry_open_settings: '7.2',
    web_app_request_fullscreen: '8.0', web_app_exit_fullscreen: '8.0', web_app_request_safe_area: '8.0',
    web_app_request_content_safe_area: '8.0', web_app_check_home_screen: '8.0', web_app_add_to_home_screen: '8.0',
    web_app_secure_storage_save_key: '9.0', web_app_secure_storage_get_key: '9.0', web_app_secure_storage_restore_key: '9.0',
    web_app_secure_storage_clear: '9.0', web_app_device_storage_save_key: '9.0', web_app_device_storage_get_key: '9.0',
    web_app_device_storage_clear: '9.0', web_app_hide_keyboard: '9.1',
  }
  const versionAtLeast = (v, min) => {
    const a = String(v || '6.0').split('.').map(Number)
    const b = min.split('.').map(Number)
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const d = (a[i] || 0) - (b[i] || 0)
      if (d !== 0) return d > 0
    }
    return true
  }
  const clientKnows = (method) => !SINCE[method] || versionAtLeast(state.form && state.form.version, SINCE[method])
  const MOBILE = ['ios', 'android', 'android_x']
  const onMobile = () => MOBILE.includes(state.form && state.form.platform)
  /** A notched phone: the status bar and home indicator in fullscreen; Telegram's Close and ⋯ buttons drawn over the app below the notch. */
  const NOTCH = { safe: { top: 47, bottom: 34, left: 0, right: 0 }, content: { top: 46, bottom: 0, left: 0, right: 0 } }
  const ZERO = { top: 0, bottom: 0, left: 0, right: 0 }
  const safeArea = () => (state.fullscreen ? NOTCH.safe : ZERO)
  const contentSafeArea = () => (state.fullscreen ? NOTCH.content : ZERO)
  const sendInsets = () => {
    send('safe_area_changed', safeArea())
    send('content_safe_area_changed', contentSafeArea())
  }
  const userKey = () => String(state.form ? state.form.user : 0)
  /** SecureStorage and DeviceStorage: in memory, per user, per kind (a reload of the host forgets them). */
  const deviceStores = { secure_storage: new Map(), device_storage: new Map() }
  const storeOf = (kind) => {
    const all = deviceStores[kind]
    if (!all.has(userKey())) all.set(userKey(), new Map())
    return all.get(userKey())
  }
  /** Biometric access per user: { requested, granted, token } (in memory). */
  const biometry = new Map()
  const biometryOf = () => {
    if (!biometry.has(userKey())) biometry.set(userKey(), { requested: false, granted: false, token: '' })
    return biometry.get(userKey())
  }
  const biometryMode = () => $('host-biometry').value // 'succeed' | 'fail' | 'unavailable'
  const biometryInfo = () => {
    const b = biometryOf()
    const available = biometryMode() !== 'unavailable'
    return {
      available,
      ...(available ? { type: (state.form && state.form.platform) === 'ios' ? 'face' : 'finger' } : {}),
      access_requested: available && b.requested,
      access_granted: available && b.granted,
      token_saved: available && b.token !== '',
      device_id: `emulator-${userKey()}`,
    }
  }
  const homeKey = () => `axiom-host:home:${userKey()}`
  const homeStatus = () => {
    if (!onMobile()) return 'unsupported'
    try {
      return localStorage.getItem(homeKey()) === 'added' ? 'added' : 'missed'
    } catch {
      return 'unknown'
    }
  }

  // ---------- the log ----------
  const logEl = $('host-log')
  const hhmmss = () => new Date().toTimeString().slice(0, 8)
  const short = (data) => {
    if (data === undefined || data === '' || data === null) return ''
    const s = typeof data === 'string' ? data : JSON.stringify(data)
    return s.length > 400 ? s.slice(0, 400) + '…' : s
  }
  const log = (dir, type, data) => {
    record.events.push({ dir, type, data, at: Date.now() })
    const li = document.createElement('li')
    li.dataset.dir = dir
    li.dataset.event = type
    const t = document.createElement('time')
    t.textContent = hhmmss()
    const d = document.createElement('span')
    d.className = 'dir'
    d.textContent = dir === 'in' ? '→' : dir === 'out' ? '←' : '★'
    const body = document.createElement('span')
    const b = document.createElement('b')
    b.textContent = type
    body.append(b)
    const text = short(data)
    if (text) {
      const c = document.createElement('code')
      c.textContent = ' ' + text
      body.append(c)
    }
    li.append(t, d, body)
    const atBottom = logEl.scrollTop + logEl.clientHeight >= logEl.scrollHeight - 8
    logEl.append(li)
    while (logEl.children.length > 500) logEl.firstElementChild.remove()
    if (atBottom) logEl.scrollTop = logEl.scrollHeight
  }
  const note = (what, data) => log('note', what, data)
  $('log-clear').addEventListener('click', () => logEl.replaceChildren())

  // ---------- talking to the app ----------
  const send = (eventType, eventData) => {
    const win = state.iframe && state.iframe.contentWindow
    if (!win || state.closed) return
    log('out', eventType, eventData)
    win.postMessage(JSON.stringify(eventData === undefined ? { eventType } : { eventType, eventData }), '*')
  }

  const theme = () => config.themes[(state.form && state.form.scheme) || 'light']

  // ---------- colours ----------
  const luminance = (hex) => {
    const m = /^#?([0-9a-f]{6})$/i.exec(hex || '')
    if (!m) return 1
    const n = parseInt(m[1], 16)
    const ch = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
      const c = v / 255
      return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4)
    })
    return 0.2126 * ch[0] + 0.7152 * ch[1] + 0.0722 * ch[2]
  }
  /** A colour the app sent: '#rrggbb', '#rgb' or a theme key such as bg_color. */
  const resolveColor = (value) => {
    if (typeof value !== 'string') return null
    if (/^#[0-9a-f]{3}$/i.test(value)) return ('#' + value.slice(1).split('').map((c) => c + c).join('')).toLowerCase()
    if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase()
    const t = theme()
    return t[value] || null
  }
  const paintChrome = () => {
    const t = theme()
    const header = (state.headerColor && resolveColor(state.headerColor.key || state.headerColor.color)) || t.header_bg_color
    const bg = (state.bgColor && resolveColor(state.bgColor)) || t.bg_color
    const screen = $('screen')
    screen.style.setProperty('--header-bg', header)
    screen.style.setProperty('--app-bg', bg)
    const dark = luminance(header) < 0.35
    screen.style.setProperty('--header-fg', dark ? '#ffffff' : '#000000')
    screen.style.setProperty('--header-link', dark ? '#ffffff' : t.link_color)
    const headerText = state.headerColor ? header + (state.headerColor.key ? ` (${state.headerColor.key})` : '') : `${header} (default)`
    $('host-header-color').textContent = headerText
    $('sw-header').style.background = header
    $('host-bg-color').textContent = state.bgColor ? bg : `${bg} (default)`
    $('sw-bg').style.background = bg
    const mb = state.mainButton
    const button = $('host-main-button')
    button.hidden = !mb.is_visible
    button.textContent = (mb.is_progress_visible ? '⏳ ' : '') + (mb.text || 'Continue')
    button.disabled = mb.is_active === false
    button.style.background = resolveColor(mb.color) || t.button_color
    button.style.color = resolveColor(mb.text_color) || t.button_text_color
  }

  const showState = () => {
    $('st-ready').textContent = state.ready ? 'yes' : 'no'
    $('host-ready').hidden = !state.ready || state.closed
    $('st-expanded').textContent = state.expanded ? 'yes' : 'no'
    $('host-swipes').textContent = state.allowVerticalSwipe ? 'allowed' : 'disabled'
    $('host-orientation').textContent = state.orientationLocked ? 'locked' : 'unlocked'
    $('st-back').textContent = state.backVisible ? 'visible' : 'hidden'
    $('st-closing').textContent = state.needCloseConfirmation ? 'on' : 'off'
    $('st-visible').textContent = state.visible ? 'yes' : 'no (minimized)'
    $('host-back').hidden = !state.backVisible || state.closed
    $('host-close').hidden = state.backVisible && !state.closed
    $('closed').hidden = !state.closed
    $('minimized').hidden = state.visible || state.closed
    $('share').hidden = !state.share
    $('popup').hidden = !state.popup
    $('bot-chat').hidden = !state.chatOpen
    $('screen').classList.toggle('fullscreen', state.fullscreen)
    $('host-fullscreen').textContent = state.fullscreen ? 'yes' : 'no'
    $('host-home').textContent = state.form ? homeStatus() : '—'
    const counted = (kind) => (deviceStores[kind].get(userKey()) || new Map()).size
    $('host-storage').textContent = `secure ${counted('secure_storage')} · device ${counted('device_storage')}`
    const b = biometryOf()
    $('host-biometry-access').textContent = !b.requested ? 'not asked' : b.granted ? 'granted' : 'denied'
    const vp = viewport()
    $('st-viewport').textContent = `${vp.width}×${vp.height}`
    paintChrome()
  }

  const viewport = () => {
    const el = $('viewport')
    return { width: el.clientWidth, height: el.clientHeight }
  }
  const sendViewport = () => {
    const vp = viewport()
    send('viewport_changed', { height: vp.height, width: vp.width, is_expanded: true, is_state_stable: true })
  }
  const sendTheme = () => send('theme_changed', { theme_params: theme() })

  // ---------- haptics ----------
  let hapticTimer = 0
  const haptic = (data) => {
    data = data || {}
    const detail = data.type === 'impact' ? data.impact_style : data.type === 'notification' ? data.notification_type : ''
    const text = detail ? `${data.type}: ${detail}` : String(data.type || 'unknown')
    $('host-haptic').textContent = text
    const pop = $('haptic-pop')
    pop.textContent = 'haptic · ' + text
    pop.classList.add('on')
    const phone = $('phone')
    phone.classList.remove('shake')
    void phone.offsetWidth
    if (data.type !== 'selection_change') phone.classList.add('shake')
    clearTimeout(hapticTimer)
    hapticTimer = setTimeout(() => pop.classList.remove('on'), 1200)
  }

  // ---------- links ----------
  const postJson = async (path, body) => {
    const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
    let json = null
    try {
      json = await res.json()
    } catch {}
    return { ok: res.ok, status: res.status, json }
  }

  const setMember = async (member) => {
    if (!state.form) return
    const id = Number(state.form.user)
    const r = member ? await postJson('/join-community', { user_id: id }) : await postJson('/community', { user_id: id, member: false })
    note(member ? 'community joined' : 'community left', r.ok ? { user_id: id } : { user_id: id, status: r.status, error: r.json && r.json.error })
  }

  /** A link to the bot that a friend may tap next ("Open the last bot link as a new user"). */
  const rememberBotLink = (href) => {
    let url
    try {
      url = new URL(href)
    } catch {
      return
    }
    if (url.hostname !== 't.me') return
    const bot = '/' + config.botUsername.toLowerCase()
    const path = url.pathname.replace(/\/+$/, '').toLowerCase()
    if (path !== bot && !path.startsWith(bot + '/')) return
    state.lastBotLink = url.href
    $('host-open-start-link').hidden = false
    $('host-open-start-link').title = url.href
  }

  /** A t.me link, as Telegram's client would route it (path plus query). */
  const openTelegramPath = (pathFull) => {
    const url = new URL(pathFull, 'https://t.me')
    $('host-last-link').textContent = url.href
    const path = url.pathname.replace(/\/+$/, '').toLowerCase()
    if (path === config.communityPath.replace(/\/+$/, '').toLowerCase()) {
      // Telegram opens the channel and the user joins it.
      note('opened the community', url.href)
      void setMember(true)
      return
    }
    if (path === '/share/url' || path === '/share') {
      const shared = url.searchParams.get('url')
      note('share link', { url: shared, text: url.searchParams.get('text') })
      // Sent to a friend: what they tap is the shared link.
      if (shared) rememberBotLink(shared)
      return
    }
    const bot = '/' + config.botUsername.toLowerCase()
    if (path === bot || path.startsWith(bot + '/')) {
      // Sent to a chat, and tapped there by a friend: the host routes it when it is opened (POST /launch with the link).
      note('bot link', { link: url.href, start: url.searchParams.get('start'), startapp: url.searchParams.get('startapp') })
      rememberBotLink(url.href)
      return
    }
    note('telegram link', url.href)
  }

  const openLink = (rawUrl) => {
    let url
    try {
      url = new URL(rawUrl)
    } catch {
      note('open link rejected', rawUrl)
      return
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      note('open link rejected', rawUrl)
      return
    }
    if (url.hostname === 't.me') return openTelegramPath(url.pathname + url.search)
    $('host-last-link').textContent = url.href
    note('open link (new tab)', url.href)
    window.open(url.href, '_blank', 'noopener')
  }

  /**
   * A client before 6.1 opens links with window.open, which its WebView routes: t.me links inside
   * Telegram, others outside. Only a frame served from this origin can be watched (index.ts).
   */
  const watchWindowOpen = (iframe) => {
    let win
    try {
      win = iframe.contentWindow
      if (!win || !win.document) return
    } catch {
      return // another origin: a later client, which opens links through web_app_open_link
    }
    const original = win.open.bind(win)
    win.open = (target, name, features) => {
      let url = null
      try {
        url = new URL(String(target), win.location.href)
      } catch {}
      if (!url || url.hostname !== 't.me') return original(target, name, features)
      note('window.open', url.href)
      openTelegramPath(url.pathname + url.search)
      return null
    }
  }

  // ---------- dialogs ----------
  const closeShare = (sent) => {
    if (!state.share) return
    const shared = state.share
    state.share = null
    if (sent && shared.link) rememberBotLink(shared.link)
    showState()
    if (sent) send('prepared_message_sent', {})
    else send('prepared_message_failed', { error: 'USER_DECLINED' })
  }
  $('host-share-send').addEventListener('click', () => closeShare(true))
  $('host-share-cancel').addEventListener('click', () => closeShare(false))

  const openPopup = (params, onClose) => {
    params = params || {}
    state.popup = { onClose }
    $('popup-title').textContent = params.title || config.botName
    $('popup-message').textContent = params.message || ''
    const row = $('popup-buttons')
    row.replaceChildren()
    const buttons = Array.isArray(params.buttons) && params.buttons.length ? params.buttons : [{ id: '', type: 'close' }]
    for (const b of buttons) {
      const el = document.createElement('button')
      el.type = 'button'
      el.className = 'btn' + (b.type === 'destructive' ? ' danger' : b.type === 'default' || b.type === 'ok' ? ' primary' : '')
      el.dataset.testid = 'host-popup-button'
      el.textContent = b.text || { ok: 'OK', close: 'Close', cancel: 'Cancel' }[b.type] || 'OK'
      el.addEventListener('click', () => {
        const p = state.popup
        state.popup = null
        showState()
        if (p && p.onClose) p.onClose(b.id === undefined ? '' : b.id)
      })
      row.append(el)
    }
    showState()
  }

  // ---------- CloudStorage (web_app_invoke_custom_method), kept per user in localStorage ----------
  const cloudKey = () => `axiom-host:cloud:${state.form ? state.form.user : 0}`
  const cloud = () => {
    try {
      return JSON.parse(localStorage.getItem(cloudKey()) || '{}')
    } catch {
      return {}
    }
  }
  const customMethod = (method, params) => {
    const store = cloud()
    const save = () => localStorage.setItem(cloudKey(), JSON.stringify(store))
    switch (method) {
      case 'saveStorageValue':
        store[params.key] = String(params.value)
        save()
        return true
      case 'getStorageValues': {
        const out = {}
        for (const k of params.keys || []) out[k] = store[k] === undefined ? '' : store[k]
        return out
      }
      case 'deleteStorageValues':
        for (const k of params.keys || []) delete store[k]
        save()
        return true
      case 'getStorageKeys':
        return Object.keys(store)
      default:
        throw new Error('Method not supported by the emulator')
    }
  }

  // ---------- close / visibility ----------
  const closeApp = (why) => {
    if (state.closed) return
    state.closed = true
    state.share = null
    state.popup = null
    $('closed-why').textContent = why
    note('closed', why)
    if (state.iframe) {
      state.iframe.remove()
      state.iframe = null
    }
    showState()
  }
  $('host-close').addEventListener('click', () => {
    if (state.needCloseConfirmation) {
      openPopup(
        { title: config.botName, message: 'Changes that you made may not be saved.', buttons: [{ id: 'close', type: 'destructive', text: 'Close anyway' }, { id: 'cancel', type: 'cancel' }] },
        (id) => id === 'close' && closeApp('closed by the user'),
      )
    } else closeApp('closed by the user')
  })
  $('host-back').addEventListener('click', () => send('back_button_pressed'))
  $('host-main-button').addEventListener('click', () => {
    if (state.mainButton.is_active !== false) send('main_button_pressed')
  })

  const setVisible = (visible) => {
    if (state.closed || !state.iframe || state.visible === visible) return
    state.visible = visible
    showState()
    send('visibility_changed', { is_visible: visible })
  }
  document.addEventListener('click', (e) => {
    const action = e.target instanceof Element ? e.target.closest('[data-action]') : null
    if (!action) return
    if (action.dataset.action === 'minimize') setVisible(false)
    if (action.dataset.action === 'restore') setVisible(true)
  })
  $('host-join').addEventListener('click', () => void setMember(true))
  $('host-leave').addEventListener('click', () => void setMember(false))
  $('host-reload').addEventListener('click', () => send('reload_iframe'))

  // ---------- what the app posts ----------
  const handlers = {
    iframe_ready: () => {},
    iframe_will_reload: () => {
      state.ready = false
      state.backVisible = false
    },
    web_app_ready: () => {
      state.ready = true
    },
    web_app_expand: () => {
      state.expanded = true
      sendViewport()
    },
    web_app_request_viewport: () => sendViewport(),
    web_app_request_theme: () => sendTheme(),
    web_app_request_safe_area: () => send('safe_area_changed', safeArea()),
    web_app_request_content_safe_area: () => send('content_safe_area_changed', contentSafeArea()),
    web_app_setup_back_button: (d) => {
      state.backVisible = !!(d && d.is_visible)
    },
    web_app_setup_main_button: (d) => {
      state.mainButton = Object.assign({}, d || {})
    },
    web_app_trigger_haptic_feedback: (d) => haptic(d),
    web_app_set_header_color: (d) => {
      d = d || {}
      state.headerColor = d.color_key ? { key: d.color_key } : { color: d.color }
    },
    web_app_set_background_color: (d) => {
      state.bgColor = d && d.color
    },
    web_app_set_bottom_bar_color: (d) => {
      state.bottomBarColor = d && d.color
    },
    web_app_setup_swipe_behavior: (d) => {
      state.allowVerticalSwipe = !(d && d.allow_vertical_swipe === false)
    },
    web_app_toggle_orientation_lock: (d) => {
      state.orientationLocked = !!(d && d.locked)
    },
    web_app_setup_closing_behavior: (d) => {
      state.needCloseConfirmation = !!(d && d.need_confirmation)
    },
    web_app_open_link: (d) => openLink(d && d.url),
    web_app_open_tg_link: (d) => openTelegramPath((d && d.path_full) || '/'),
    web_app_send_prepared_message: (d) => {
      if (state.share) return send('prepared_message_failed', { error: 'MESSAGE_SEND_FAILED' })
      const id = d && d.id
      state.share = { id }
      $('share-text').textContent = `Prepared message ${id ? '“' + id + '”' : ''} from @${config.botUsername}. Choose a chat:`
      $('share-prepared').hidden = true
      // Telegram shows the message the bot prepared (savePreparedInlineMessage); an unknown id fails.
      void fetch('/prepared/' + encodeURIComponent(id || '')).then(async (r) => {
        if (!state.share || state.share.id !== id) return
        if (!r.ok) {
          note('prepared message unknown', id)
          state.share = null
          showState()
          return send('prepared_message_failed', { error: 'MESSAGE_EXPIRED' })
        }
        const p = await r.json()
        const content = (p.result && p.result.input_message_content) || {}
        const row = p.result && p.result.reply_markup && p.result.reply_markup.inline_keyboard && p.result.reply_markup.inline_keyboard[0]
        const button = row && row[0]
        state.share.link = button && button.url
        const box = $('share-prepared')
        box.replaceChildren(document.createTextNode(content.message_text || p.result.title || ''))
        if (button) {
          const b = document.createElement('button')
          b.type = 'button'
          b.className = 'btn small'
          b.textContent = button.text
          b.disabled = true
          box.append(b)
        }
        box.hidden = false
        note('prepared message', { id, text: content.message_text, button: button && button.url })
      })
    },
    web_app_open_popup: (d) => openPopup(d, (id) => send('popup_closed', id === '' ? {} : { button_id: id })),
    // Telegram's own prompt; an answer lets the bot write to the user though they never started it.
    web_app_request_write_access: () => {
      const id = state.form ? Number(state.form.user) : 0
      const answer = async (allowed) => {
        await postJson('/write-access', { user_id: id, allowed })
        note(allowed ? 'messages from the bot allowed' : 'messages from the bot declined', { user_id: id })
        send('write_access_requested', { status: allowed ? 'allowed' : 'cancelled' })
      }
      if (writeAccessMode === 'allow') return void answer(true)
      openPopup(
        { title: config.botName, message: `Allow ${config.botName} to send you messages?`, buttons: [{ id: 'deny', type: 'cancel', text: "Don't allow" }, { id: 'allow', type: 'default', text: 'Allow' }] },
        (button) => void answer(button === 'allow'),
      )
    },
    web_app_read_text_from_clipboard: (d) => send('clipboard_text_received', { req_id: d && d.req_id, data: null }),
    web_app_request_phone: () => send('phone_requested', { status: 'cancelled' }),
    web_app_request_fullscreen: () => {
      if ($('host-fullscreen-fails').checked) return send('fullscreen_failed', { error: 'UNSUPPORTED' })
      if (state.fullscreen) return send('fullscreen_failed', { error: 'ALREADY_FULLSCREEN' })
      state.fullscreen = true
      showState()
      send('fullscreen_changed', { is_fullscreen: true })
      sendInsets()
      sendViewport()
    },
    web_app_exit_fullscreen: () => {
      if (!state.fullscreen) return
      state.fullscreen = false
      showState()
      send('fullscreen_changed', { is_fullscreen: false })
      sendInsets()
      sendViewport()
    },
    web_app_check_home_screen: () => send('home_screen_checked', { status: homeStatus() }),
    web_app_add_to_home_screen: () => {
      if (!onMobile()) return send('home_screen_failed')
      openPopup(
        { title: 'Add to Home Screen', message: `Add ${config.botName} to the home screen?`, buttons: [{ id: 'cancel', type: 'cancel' }, { id: 'add', type: 'default', text: 'Add' }] },
        (id) => {
          if (id !== 'add') return send('home_screen_failed')
          try {
            localStorage.setItem(homeKey(), 'added')
          } catch {}
          note('added to the home screen', { user: userKey() })
          showState()
          send('home_screen_added')
        },
      )
    },
    web_app_biometry_get_info: () => send('biometry_info_received', biometryInfo()),
    // Telegram's prompt, once: a user asked before is answered with the settings as they are.
    web_app_biometry_request_access: (d) => {
      const b = biometryOf()
      if (biometryMode() === 'unavailable' || b.requested) return send('biometry_info_received', biometryInfo())
      openPopup(
        { title: `Allow ${config.botName} to use ${biometryInfo().type === 'face' ? 'Face ID' : 'fingerprint'}?`, message: (d && d.reason) || '', buttons: [{ id: 'deny', type: 'cancel', text: "Don't allow" }, { id: 'allow', type: 'default', text: 'Allow' }] },
        (id) => {
          b.requested = true
          b.granted = id === 'allow'
          showState()
          send('biometry_info_received', biometryInfo())
        },
      )
    },
    web_app_biometry_request_auth: (d) => {
      const b = biometryOf()
      const ok = biometryMode() === 'succeed' && b.granted
      note('biometric prompt', { reason: (d && d.reason) || '', result: ok ? 'authorized' : 'failed' })
      send('biometry_auth_requested', ok ? { status: 'authorized', ...(b.token ? { token: b.token } : {}) } : { status: 'failed' })
    },
    web_app_biometry_update_token: (d) => {
      const b = biometryOf()
      if (!b.granted) return send('biometry_token_updated', { status: 'failed' })
      b.token = String((d && d.token) || '')
      send('biometry_token_updated', { status: b.token ? 'updated' : 'removed' })
    },
    web_app_biometry_open_settings: () => note('biometry settings opened'),
    web_app_secure_storage_save_key: (d) => storageRequest('secure_storage', 'save_key', d),
    web_app_secure_storage_get_key: (d) => storageRequest('secure_storage', 'get_key', d),
    web_app_secure_storage_restore_key: (d) => storageRequest('secure_storage', 'restore_key', d),
    web_app_secure_storage_clear: (d) => storageRequest('secure_storage', 'clear', d),
    web_app_device_storage_save_key: (d) => storageRequest('device_storage', 'save_key', d),
    web_app_device_storage_get_key: (d) => storageRequest('device_storage', 'get_key', d),
    web_app_device_storage_clear: (d) => storageRequest('device_storage', 'clear', d),
    web_app_hide_keyboard: () => note('keyboard hidden'),
    web_app_invoke_custom_method: (d) => {
      d = d || {}
      try {
        send('custom_method_invoked', { req_id: d.req_id, result: customMethod(d.method, d.params || {}) })
      } catch (e) {
        send('custom_method_invoked', { req_id: d.req_id, error: String((e && e.message) || e) })
      }
    },
    web_app_close: () => closeApp('the app called close()'),
  }

  /** One SecureStorage / DeviceStorage request, answered with its req_id as Telegram's clients do. */
  const storageRequest = (kind, action, d) => {
    d = d || {}
    const req_id = d.req_id
    if (typeof req_id !== 'string' || req_id === '') return note('storage request without req_id', { kind, action })
    if ($('host-storage-fails').checked) return send(`${kind}_failed`, { req_id, error: 'UNKNOWN_ERROR' })
    const store = storeOf(kind)
    if (action !== 'clear' && (typeof d.key !== 'string' || d.key === '')) return send(`${kind}_failed`, { req_id, error: 'KEY_INVALID' })
    switch (action) {
      case 'save_key':
        if (d.value === null || d.value === undefined) store.delete(d.key)
        else store.set(d.key, String(d.value))
        return send(`${kind}_key_saved`, { req_id })
      case 'get_key':
        return send(`${kind}_key_received`, { req_id, value: store.has(d.key) ? store.get(d.key) : null, ...(kind === 'secure_storage' ? { can_restore: false } : {}) })
      case 'restore_key':
        return send(`${kind}_key_restored`, { req_id, value: store.has(d.key) ? store.get(d.key) : null })
      case 'clear':
        store.clear()
        return send(`${kind}_cleared`, { req_id })
    }
  }
  $('host-fullscreen-exit').addEventListener('click', () => handlers.web_app_exit_fullscreen())
  $('host-biometry').addEventListener('change', () => showState())

  window.addEventListener('message', (event) => {
    if (!state.iframe || event.source !== state.iframe.contentWindow) return
    let msg
    try {
      msg = typeof event.data === 'string' ? JSON.parse(event.data) : event.data
    } catch {
      return
    }
    if (!msg || typeof msg.eventType !== 'string') return
    const data = msg.eventData === '' ? undefined : msg.eventData
    log('in', msg.eventType, data)
    if (!clientKnows(msg.eventType)) return note(`client ${state.form.version} ignores it`, msg.eventType)
    const handler = handlers[msg.eventType]
    if (!handler) return
    try {
      handler(data)
    } catch (e) {
      note('host error', String((e && e.message) || e))
    }
    showState()
  })

  // ---------- the bot's chat (the emulator's Bot API holds it) ----------
  const chatUser = () => {
    const v = state.form || readForm()
    return { id: Number(v.user), first_name: v.name || `User ${v.user}`, language_code: v.lang }
  }
  const drawMessage = (m) => {
    const el = document.createElement('div')
    el.className = 'msg ' + m.from
    el.dataset.testid = 'host-chat-message'
    el.dataset.from = m.from
    el.textContent = m.text
    const rows = m.reply_markup && m.reply_markup.inline_keyboard
    if (Array.isArray(rows)) {
      const kb = document.createElement('div')
      kb.className = 'kb'
      for (const row of rows) for (const b of row || []) {
        const btn = document.createElement('button')
        btn.type = 'button'
        btn.dataset.testid = 'host-chat-button'
        btn.textContent = b.text
        btn.addEventListener('click', () => {
          note('bot button', b)
          const values = Object.assign({}, state.form || readForm())
          // A url button to the bot's direct link opens the app with its startapp; a web_app button opens it with none.
          if (b.url) {
            if (new URL(b.url).hostname === 't.me') void launch(values, b.url)
            else window.open(b.url, '_blank', 'noopener')
          } else if (b.web_app) void launch(Object.assign(values, { start: '' }))
        })
        kb.append(btn)
      }
      el.append(kb)
    }
    $('chat-list').append(el)
    $('chat-list').scrollTop = $('chat-list').scrollHeight
  }
  const pollChat = async () => {
    const v = state.form || readForm()
    if (!/^\d+$/.test(String(v.user))) return
    const user = Number(v.user)
    if (state.chatUser !== user) {
      state.chatUser = user
      state.chatSeen = 0
      $('chat-list').replaceChildren()
    }
    let r
    try {
      r = await fetch(`/chat?user=${user}&after=${state.chatSeen}`)
    } catch {
      return
    }
    if (!r.ok || state.chatUser !== user) return
    const j = await r.json()
    for (const m of j.messages) {
      if (m.message_id <= state.chatSeen) continue
      state.chatSeen = m.message_id
      drawMessage(m)
      if (m.from === 'bot') note('bot message', { text: m.text.slice(0, 120) })
    }
    $('host-member').textContent = j.member
    $('host-consumer').textContent = j.consumer
    $('host-block-bot').textContent = j.blocked ? 'Unblock bot' : 'Block bot'
    $('host-block-bot').dataset.blocked = j.blocked ? '1' : ''
    const menu = j.menu_button
    $('chat-open-app').textContent = (menu && menu.type === 'web_app' && menu.text) || 'Open app'
  }
  setInterval(() => void pollChat(), 500)
  const showChat = () => {
    state.chatOpen = true
    if (state.iframe) {
      state.iframe.remove()
      state.iframe = null
    }
    state.closed = false
    $('bot-sub').textContent = `bot · @${config.botUsername}`
    showState()
    void pollChat()
  }
  $('chat-form').addEventListener('submit', async (e) => {
    e.preventDefault()
    const text = $('chat-text').value.trim()
    if (!text) return
    $('chat-text').value = ''
    await postJson('/chat', { user: chatUser(), text })
    void pollChat()
  })
  $('chat-open-app').addEventListener('click', () => void launch(Object.assign({}, state.form || readForm(), { start: '' })))
  $('host-show-chat').addEventListener('click', () => {
    if (!state.form) state.form = readForm()
    showChat()
  })
  $('host-block-bot').addEventListener('click', async () => {
    const blocked = !$('host-block-bot').dataset.blocked
    await postJson('/chat/block', { user_id: chatUser().id, blocked })
    note(blocked ? 'bot blocked' : 'bot unblocked', { user_id: chatUser().id })
    void pollChat()
  })

  // ---------- the form and launching ----------
  const form = $('launch-form')
  const platformSelect = $('f-platform')
  for (const p of config.platforms) {
    const o = document.createElement('option')
    o.value = p
    o.textContent = p
    platformSelect.append(o)
  }
  const fields = ['user', 'name', 'lang', 'start', 'version', 'platform', 'scheme', 'perf']
  const readForm = () => {
    const out = {}
    for (const f of fields) out[f] = form.elements[f].value.trim()
    return out
  }
  const writeForm = (values) => {
    for (const f of fields) if (values[f] !== undefined && values[f] !== null) form.elements[f].value = String(values[f])
  }

  /** Launches the app for the form's values; with `link` (a t.me link to the bot), the link decides the start parameter. */
  const launch = async (values, link) => {
    $('launch-error').textContent = ''
    const body = {
      user: { id: Number(values.user), first_name: values.name || `User ${values.user}`, language_code: values.lang },
      ...(link ? { link } : { start_param: values.start }),
      version: values.version,
      platform: values.platform,
      color_scheme: values.scheme,
      ...(values.perf ? { performance_class: values.perf } : {}),
    }
    const r = await postJson('/launch', body)
    if (!r.ok) {
      $('launch-error').textContent = (r.json && r.json.error) || `launch failed (${r.status})`
      return
    }
    if (link) {
      values = Object.assign({}, values, { start: r.json.start_param || '' })
      writeForm({ start: values.start })
      note(r.json.opens === 'bot-chat' ? 'link opened the bot chat' : 'link opened the mini app', {
        link,
        start_param: r.json.start_param || null,
        ...(r.json.bot_start ? { sent_to_bot: '/start ' + r.json.bot_start } : {}),
      })
      if (r.json.opens === 'bot-chat') {
        // The chat opens, not the app: the bot answers, and its button opens the app.
        state.form = values
        try {
          localStorage.setItem(STORE_KEY, JSON.stringify(values))
        } catch {}
        showChat()
        return
      }
    }
    try {
      localStorage.setItem(STORE_KEY, JSON.stringify(values))
    } catch {}
    const q = new URLSearchParams({ user: values.user, name: values.name, lang: values.lang, version: values.version, platform: values.platform, scheme: values.scheme })
    if (values.start) q.set('start', values.start)
    if (values.perf) q.set('perf', values.perf)
    history.replaceState(null, '', `${location.pathname}?${q}`)

    if (state.iframe) state.iframe.remove()
    Object.assign(state, {
      form: values, ready: false, expanded: false, closed: false, visible: true, backVisible: false, chatOpen: false,
      headerColor: null, bgColor: null, bottomBarColor: null, allowVerticalSwipe: true, orientationLocked: false,
      needCloseConfirmation: false, share: null, popup: null, mainButton: { is_visible: false }, fullscreen: false,
    })
    $('host-user-agent').textContent = r.json.user_agent || '(the browser’s own)'
    const iframe = document.createElement('iframe')
    iframe.id = 'app-frame'
    iframe.name = 'axiom-app'
    iframe.title = config.botName
    iframe.dataset.testid = 'host-iframe'
    iframe.allow = 'clipboard-read; clipboard-write; fullscreen'
    iframe.src = r.json.url
    iframe.addEventListener('load', () => watchWindowOpen(iframe))
    state.iframe = iframe
    $('viewport').prepend(iframe)
    record.launches.push({ at: Date.now(), form: values, url: r.json.url, initData: r.json.initData, userAgent: r.json.user_agent || null })
    $('bot-sub').textContent = `mini app · @${config.botUsername}`
    note('launch', { user: Number(values.user), name: values.name, lang: values.lang, start: values.start || null, version: values.version, platform: values.platform, scheme: values.scheme, ...(values.perf ? { performance_class: values.perf } : {}) })
    showState()
    // On a narrow window the form is below the phone: bring the app into view.
    if (window.innerWidth < 700) $('phone').scrollIntoView({ block: 'start' })
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault()
    void launch(readForm())
  })
  $('host-reopen').addEventListener('click', () => {
    if (state.form) void launch(state.form)
  })
  $('host-new-user').addEventListener('click', () => {
    const id = 100000 + Math.floor(Math.random() * 900000)
    writeForm({ user: id, name: `User ${id}`, start: '' })
    void launch(readForm())
  })
  $('host-open-link').addEventListener('click', () => {
    const link = $('f-link').value.trim()
    if (link) void launch(readForm(), link)
  })
  $('host-open-start-link').addEventListener('click', () => {
    // What a friend who taps the shared link gets, as a new user: the mini app with the link's start
    // parameter for a direct link, or the bot's chat (and the app with none) for a ?start= link.
    const id = 100000 + Math.floor(Math.random() * 900000)
    writeForm({ user: id, name: `User ${id}`, start: '' })
    $('host-open-start-link').hidden = true
    if (state.lastBotLink) void launch(readForm(), state.lastBotLink)
  })
  $('f-user').addEventListener('input', () => {
    const id = Number($('f-user').value)
    const name = $('f-name').value
    if (!name || /^User \d+$/.test(name) || Object.values(NAMES).includes(name)) $('f-name').value = NAMES[id] || `User ${id}`
  })
  $('f-scheme').addEventListener('change', () => {
    // Telegram tells a running app when the user switches theme.
    if (!state.form || state.closed) return
    state.form = Object.assign({}, state.form, { scheme: $('f-scheme').value })
    sendTheme()
    showState()
  })
  window.addEventListener('resize', () => state.iframe && sendViewport())

  // ---------- start ----------
  $('bot-name').textContent = config.botName
  $('bot-sub').textContent = `mini app · @${config.botUsername}`
  $('brand-sub').textContent = `@${config.botUsername} → ${config.appUrl}`
  $('app-url').textContent = config.appUrl
  $('f-link').placeholder = `https://t.me/${config.botUsername}/${config.appShortName}?startapp=…`
  const clock = () => ($('clock').textContent = new Date().toTimeString().slice(0, 5))
  clock()
  setInterval(clock, 30000)

  const defaults = config.defaults
  const initial = {
    user: String(defaults.user), name: defaults.name, lang: defaults.lang, start: defaults.start,
    version: defaults.version, platform: defaults.platform, scheme: defaults.scheme, perf: '',
  }
  const query = new URLSearchParams(location.search)
  const fromQuery = fields.some((f) => query.has(f))
  if (fromQuery) {
    if (query.has('user')) {
      initial.user = query.get('user')
      initial.name = NAMES[Number(initial.user)] || `User ${initial.user}`
    }
    for (const f of fields) if (f !== 'user' && query.has(f)) initial[f] = query.get(f)
  } else {
    try {
      Object.assign(initial, JSON.parse(localStorage.getItem(STORE_KEY) || '{}'))
    } catch {}
  }
  writeForm(initial)
  if (query.get('link')) $('f-link').value = query.get('link')
  showState()
  // ?link=<t.me link>: opened as a tap on that link would open it (the start parameter comes from the link).
  if (query.get('launch') !== '0') void launch(readForm(), query.get('link') || undefined)
})()
