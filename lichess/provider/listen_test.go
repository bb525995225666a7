package provider

import "net"

// listen opens a loopback listener for a test server.
func listen() (net.Listener, string) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	return ln, "http://" + ln.Addr().String()
}
