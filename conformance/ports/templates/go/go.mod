module onepath-port

go 1.19
