// A module whose default export does not extend Agent: the Worker must refuse to start it.
export default class NotAnAgent {
  onMessage() {}
}
