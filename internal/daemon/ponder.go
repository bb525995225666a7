package daemon

// ponders reports whether the engine's definition asks for pondering
// ([engines.NAME] ponder = true). The runner ponders only in real-time
// games and only with an engine that can (engine.CanPonder).
func (d *Daemon) ponders(engineName string) bool {
	def, err := d.cfg.ResolveEngine(engineName)
	return err == nil && def.Ponder
}
