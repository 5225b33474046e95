/**
 * Theme parameters the emulated client sends the mini app (`tgWebAppThemeParams` and
 * `theme_changed {theme_params}`), in Telegram's own keys. The light palette is Telegram's iOS day
 * theme with a light-blue secondary background; the dark one is Telegram Desktop's "night blue".
 */
export type ColorScheme = 'light' | 'dark'

export type ThemeParams = Readonly<Record<string, `#${string}`>>

export const THEMES: Readonly<Record<ColorScheme, ThemeParams>> = {
  light: {
    bg_color: '#ffffff',
    text_color: '#000000',
    hint_color: '#8e8e93',
    link_color: '#2481cc',
    button_color: '#2481cc',
    button_text_color: '#ffffff',
    secondary_bg_color: '#eef3f9',
    header_bg_color: '#f4f8fc',
    bottom_bar_bg_color: '#f4f8fc',
    accent_text_color: '#2481cc',
    section_bg_color: '#ffffff',
    section_header_text_color: '#6d6d72',
    section_separator_color: '#d6dde6',
    subtitle_text_color: '#8e8e93',
    destructive_text_color: '#ff3b30',
  },
  dark: {
    bg_color: '#17212b',
    text_color: '#f5f5f5',
    hint_color: '#708499',
    link_color: '#6ab3f3',
    button_color: '#5288c1',
    button_text_color: '#ffffff',
    secondary_bg_color: '#232e3c',
    header_bg_color: '#17212b',
    bottom_bar_bg_color: '#17212b',
    accent_text_color: '#6ab2f2',
    section_bg_color: '#17212b',
    section_header_text_color: '#6ab3f3',
    section_separator_color: '#111921',
    subtitle_text_color: '#708499',
    destructive_text_color: '#ec3942',
  },
}
