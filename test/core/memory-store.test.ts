/** The in-memory stack (tests, and a process that needs nothing durable): the shared store contract. */
import { MemoryPendingActionStore } from "../../src/core/store.js";
import { byStep, stackStoreContract } from "./store-contract.js";

describe("MemoryPendingActionStore: the PendingActionStore contract", () => {
  stackStoreContract(
    async () => {
      // Memory is the process: every store of a test is the one instance.
      const store = new MemoryPendingActionStore();
      return {
        open: async () => store,
        commit: async () => "c".repeat(40),
        resolutions: async () => byStep(store.resolutions),
      };
    },
    { concurrent: true },
  );
});
