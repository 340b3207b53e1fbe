import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      keyframes: {
        "tk-pulse": { "0%,100%": { opacity: "1" }, "50%": { opacity: "0.55" } },
        "tk-appear": { from: { opacity: "0", transform: "scaleX(0.6)" }, to: { opacity: "1", transform: "scaleX(1)" } },
      },
      animation: {
        "tk-pulse": "tk-pulse 1.6s ease-in-out infinite",
        "tk-appear": "tk-appear 0.5s ease-out",
      },
    },
  },
} satisfies Config;
