module github.com/nish-driver/nish-driver

go 1.26.8
