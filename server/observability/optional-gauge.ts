import { Gauge, type Registry } from 'prom-client'

/**
 * A gauge without labels whose value may be unknown (no chain client, an endpoint that did not answer,
 * a limit not set): then the scrape carries no sample of it at all, where prom-client's plain gauge
 * would say 0 (a treasury of 0 TON, a watcher 0 s behind). `read` runs at each scrape.
 */
export const optionalGauge = (registry: Registry, name: string, help: string, read: () => number | null): Gauge => {
  let value: number | null = null
  class Optional extends Gauge {
    override async get() {
      const m = await super.get()
      return value === null ? { ...m, values: [] } : m
    }
  }
  return new Optional({
    name,
    help,
    registers: [registry],
    collect() {
      value = read()
      if (value !== null) this.set(value)
    },
  })
}
