// One sqslite for the run (Vitest and Jest alike), with the project's queues and a manual clock.
import { withOptions } from "sqslite/global-setup";

export default withOptions({ config: "sqslite.toml", clock: "manual" });
