import { serviceCallSuite } from "../helpers/service-calls"

jest.setTimeout(120_000)

serviceCallSuite("after_payment")
