/**
 * Theme tokens of spec §9. Tailwind 4 reads this file through the `@config` directive in
 * src/styles/global.css; content detection is automatic.
 * @type {import('tailwindcss').Config}
 */
export default {
  theme: {
    extend: {
      colors: {
        orange: {
          50: '#fff4ed',
          100: '#ffe6d5',
          200: '#ffc9aa',
          300: '#ffa374',
          400: '#ff713a',
          500: '#ff5e00',
          600: '#e04f00',
          700: '#b23c00',
          800: '#8f3207',
          900: '#742b0a',
        },
        red: {
          50: '#fef2f2',
          100: '#fde3e4',
          200: '#fbcdce',
          300: '#f7a9ac',
          400: '#f0767b',
          500: '#e22530',
          600: '#c81e28',
          700: '#a8161f',
          800: '#8b171e',
          900: '#74191f',
        },
      },
      fontFamily: {
        sans: [
          '"Inter Variable"',
          'Inter',
          'system-ui',
          '-apple-system',
          '"Segoe UI"',
          'Roboto',
          '"PingFang TC"',
          '"Noto Sans TC"',
          '"Microsoft JhengHei"',
          '"Heiti TC"',
          '"WenQuanYi Micro Hei"',
          'sans-serif',
        ],
      },
    },
  },
};
